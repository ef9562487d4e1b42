// Whole-file robustness of overlap-gen: each bad input gets a message that says what is wrong, exit
// status 1, and no output file. The tool runs as a child process, so a crash is seen as a signal
// rather than taking the test down, and a hang is stopped after a time bound.
#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef OVERLAP_GEN_EXECUTABLE
#error "OVERLAP_GEN_EXECUTABLE must name the overlap-gen under test"
#endif

namespace overlap {
namespace {

namespace fs = std::filesystem;

constexpr std::chrono::seconds kTimeBound{120};

const std::string kAnnotation = "OVERLAP_KERNEL(partition(n) offset(n) extent(x: n)\n"
                                "               copy(x[lo:hi]) launch(grid: ceil_div(len, 256), "
                                "block: 256))\n";

struct ToolRun {
  bool exited = false; // false: killed by a signal (a crash) or stopped at the time bound
  int status = -1;     // exit status when exited, else the signal
  bool timedOut = false;
  std::string err;
};

class Robustness : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/overlap-robustness-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr) << "mkdtemp: " << std::strerror(errno);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  fs::path write(const std::string& name, const std::string& contents) {
    fs::path path = dir_ / name;
    std::ofstream out(path, std::ios::binary);
    out << contents;
    EXPECT_TRUE(out.good()) << "cannot write " << path;
    return path;
  }

  // Runs overlap-gen on `input` with its outputs under out/.
  ToolRun generate(const fs::path& input) {
    const fs::path errPath = dir_ / "tool.stderr";
    const std::string header = (dir_ / "out/input.overlap.h").string();
    const std::string source = (dir_ / "out/input.overlap.cu").string();
    const std::string depfile = (dir_ / "out/input.overlap.d").string();
    std::vector<std::string> args = {OVERLAP_GEN_EXECUTABLE,
                                     input.string(),
                                     "--header",
                                     header,
                                     "--source",
                                     source,
                                     "--depfile",
                                     depfile};
    std::vector<char*> argv;
    for (std::string& arg : args)
      argv.push_back(arg.data());
    argv.push_back(nullptr);

    ToolRun run;
    const pid_t child = fork();
    if (child == 0) {
      const int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (err < 0 || dup2(err, STDERR_FILENO) < 0)
        _exit(127);
      execv(argv[0], argv.data());
      _exit(127);
    }
    EXPECT_GT(child, 0) << "fork: " << std::strerror(errno);
    if (child <= 0)
      return run;
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + kTimeBound;
    while (waitpid(child, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(child, SIGKILL);
        waitpid(child, &status, 0);
        run.timedOut = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    run.exited = !run.timedOut && WIFEXITED(status);
    run.status = run.exited ? WEXITSTATUS(status) : (WIFSIGNALED(status) ? WTERMSIG(status) : -1);
    std::ifstream in(errPath, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    run.err = text.str();
    return run;
  }

  // The contract for every rejected file: exit status 1 (errors in the input), `message` in what
  // it printed, located at `input` (file:line:col), and nothing written under out/.
  void expectRejected(const fs::path& input, const std::string& message) {
    const ToolRun run = generate(input);
    ASSERT_FALSE(run.timedOut) << "overlap-gen did not finish within " << kTimeBound.count()
                               << " s";
    ASSERT_TRUE(run.exited) << "overlap-gen was killed by signal " << run.status << "\n" << run.err;
    EXPECT_EQ(run.status, 1) << run.err;
    EXPECT_NE(run.err.find(message), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(input.string() + ":"), std::string::npos)
        << "the message does not name the file\n"
        << run.err;
    EXPECT_FALSE(fs::exists(dir_ / "out") && !fs::is_empty(dir_ / "out"))
        << "overlap-gen left output files after failing";
  }

  fs::path dir_;
};

// The positive control: the harness and the tool work, so the rejections below mean something.
TEST_F(Robustness, AValidFileGeneratesOutputs) {
  const fs::path input = write("input.cu", "#include <overlap/annotate.h>\n" + kAnnotation +
                                               "__global__ void k(int n, float* x) {}\n");
  const ToolRun run = generate(input);
  ASSERT_TRUE(run.exited) << run.err;
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_TRUE(fs::exists(dir_ / "out/input.overlap.h"));
  EXPECT_TRUE(fs::exists(dir_ / "out/input.overlap.cu"));
}

TEST_F(Robustness, EmptyFile) {
  expectRejected(write("input.cu", ""), "no OVERLAP_KERNEL annotations");
}

TEST_F(Robustness, NoAnnotations) {
  expectRejected(write("input.cu", "__global__ void k(int n, float* x) {}\n"),
                 "no OVERLAP_KERNEL annotations");
}

TEST_F(Robustness, AnnotationOnAHostFunction) {
  expectRejected(write("input.cu", "#include <overlap/annotate.h>\n" + kAnnotation +
                                       "void host(int n, float* x) {}\n"),
                 "'host' is marked OVERLAP_KERNEL but is not a __global__ kernel");
}

TEST_F(Robustness, AnnotationOnAVariable) {
  expectRejected(
      write("input.cu", "#include <overlap/annotate.h>\n" + kAnnotation + "int value;\n"),
      "OVERLAP_KERNEL is on 'value', which is not a function");
}

TEST_F(Robustness, TemplateKernel) {
  expectRejected(write("input.cu", "#include <overlap/annotate.h>\ntemplate <typename T>\n" +
                                       kAnnotation + "__global__ void k(int n, T* x) {}\n"),
                 "kernel 'k' is a template");
}

TEST_F(Robustness, AnnotationBeforeATemplateWithoutInstantiations) {
  // The annotation may stand above `template`, but there is nothing to generate for.
  expectRejected(write("input.cu", "#include <overlap/annotate.h>\n" + kAnnotation +
                                       "template <typename T>\n"
                                       "__global__ void k(int n, T* x) {}\n"),
                 "error: kernel 'k' is a template; list the instantiations to generate for");
}

// Overloaded kernels share a name, and the generated functions, bindings and descriptors are named
// after it: the frontend rejects the second one rather than emit a source that does not compile.
TEST_F(Robustness, OverloadedKernels) {
  expectRejected(write("input.cu", "#include <overlap/annotate.h>\n" + kAnnotation +
                                       "__global__ void k(int n, float* x) {}\n" + kAnnotation +
                                       "__global__ void k(int n, double* x) {}\n"),
                 "another annotated kernel already has the entry points 'k_...'");
}

TEST_F(Robustness, AnnotationInsideAMacroThatBuildsKernels) {
  expectRejected(write("input.cu", "#include <overlap/annotate.h>\n"
                                   "#define MAKE_KERNEL(name, T) \\\n"
                                   "  OVERLAP_KERNEL(partition(n) offset(n) extent(x: n) \\\n"
                                   "                 copy(x[lo:hi]) launch(grid: 1, block: 1)) \\\n"
                                   "  __global__ void name(int n, T* x) {}\n"
                                   "MAKE_KERNEL(kf, float)\n"
                                   "MAKE_KERNEL(kd, double)\n"),
                 "write OVERLAP_KERNEL(...) directly before the kernel, not through another "
                 "macro");
}

TEST_F(Robustness, IncludeOfAMissingHeader) {
  expectRejected(write("input.cu", "#include <overlap/annotate.h>\n#include \"missing.h\"\n" +
                                       kAnnotation + "__global__ void k(int n, float* x) {}\n"),
                 "fatal error: 'missing.h' file not found");
}

TEST_F(Robustness, FileThatDoesNotCompile) {
  expectRejected(write("input.cu", "#include <overlap/annotate.h>\n" + kAnnotation +
                                       "__global__ void k(int n, float* x) { undeclared(); }\n"),
                 "use of undeclared identifier 'undeclared'");
}

TEST_F(Robustness, BinaryGarbage) {
  std::mt19937 random(20261121); // fixed: a failure must be reproducible
  std::string garbage(64 * 1024, '\0');
  for (char& c : garbage)
    c = static_cast<char>(random() & 0xff);
  expectRejected(write("input.cu", garbage), "error:");
}

TEST_F(Robustness, HugeAnnotation) {
  // Found by the fuzzer (fuzz/): a 200,000-term expression overflowed the stack (exit by SIGSEGV).
  std::string terms;
  for (int i = 0; i < 200000; ++i)
    terms += "1+";
  expectRejected(write("input.cu", "#include <overlap/annotate.h>\n"
                                   "OVERLAP_KERNEL(partition(n) offset(n) extent(x: n)\n"
                                   "               copy(x[lo:hi]) launch(grid: 1, block: 1)\n"
                                   "               tune(n = " +
                                       terms + "1))\n__global__ void k(int n, float* x) {}\n"),
                 "expression is nested more than 100 levels deep");
}

} // namespace
} // namespace overlap
