#!/usr/bin/env python3
"""bench/trace/timeline.py on hand-made traces whose every number is worked out by hand. Run by
ctest as bench_timeline_test; needs only python3."""

import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "bench", "trace"))
import timeline  # noqa: E402

HEADER = "what,start_ns,end_ns,stream,correlation,bytes,name\n"

# Two timed runs as the tuner makes them, then a stray call. Run 1: two chunks depth first on
# streams 7 and 8 (copy in, kernel, copy out per chunk), ended by cudaDeviceSynchronize; its two
# copies in overlap for 1 us and the kernels run 10-20 and 15-30 us. Run 2: one mapped kernel.
TRACE = HEADER + "\n".join([
    'api,1000,2000,0,1,0,"cudaMemcpyAsync_v3020"',
    'api,2000,3000,0,2,0,"cudaLaunchKernel_v7000"',
    'api,3000,4000,0,3,0,"cudaMemcpyAsync_v3020"',
    'api,4000,5000,0,4,0,"cudaMemcpyAsync_v3020"',
    'api,5000,6000,0,5,0,"cudaLaunchKernel_v7000"',
    'api,6000,7000,0,6,0,"cudaMemcpyAsync_v3020"',
    'api,7000,41000,0,7,0,"cudaStreamSynchronize_v3020"',
    'api,41000,42000,0,8,0,"cudaDeviceSynchronize_v3020"',
    'copy,3000,6000,7,1,4096,"HtoD"',
    'kernel,10000,20000,7,2,0,"_Z3addPf"',
    'copy,21000,25000,7,3,4096,"DtoH"',
    'copy,5000,9000,8,4,4096,"HtoD"',
    'kernel,15000,30000,8,5,0,"_Z3addPf"',
    'copy,31000,40000,8,6,4096,"DtoH"',
    'api,100000,101000,0,9,0,"cudaLaunchKernel_v7000"',
    'api,101000,150000,0,10,0,"cudaDeviceSynchronize_v3020"',
    'kernel,102000,149000,7,9,0,"_Z6mappedPf"',
    'api,200000,201000,0,11,0,"cudaFree_v3020"',
]) + "\n"


class TimelineTest(unittest.TestCase):
    def runs_of(self, text, gap_us=50.0):
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
            f.write(text)
        self.addCleanup(os.unlink, f.name)
        return timeline.split_runs(timeline.read_trace(f.name), gap_us * 1e3)

    def test_runs_end_at_device_synchronize_and_own_their_work(self):
        runs = self.runs_of(TRACE)
        self.assertEqual(len(runs), 2)  # the stray cudaFree has no GPU work
        self.assertEqual(len(runs[0]["work"]), 6)
        self.assertEqual(len(runs[1]["work"]), 1)

    def test_a_run_is_named_and_measured_from_its_operations(self):
        first, second = [timeline.describe(run) for run in self.runs_of(TRACE)]
        self.assertEqual(first["signature"], "Streams 2 depth")
        self.assertEqual(first["kernels"], 2)
        self.assertEqual(first["wall"], 41000)  # first call 1000 to synchronize's end 42000
        self.assertEqual(first["gpu"], 37000)  # 3000 .. 40000
        self.assertEqual(first["first_op"], 2000)
        self.assertEqual(first["issue"], 6000)  # the synchronize calls are not issue
        self.assertEqual(first["in_busy"], 6000)  # 3000-6000 and 5000-9000 overlap by 1000
        self.assertEqual(first["kernel_busy"], 20000)  # 10000-30000
        self.assertEqual(first["out_busy"], 13000)
        self.assertEqual(second["signature"], "Mapped 1")

    def test_breadth_first_issue_is_told_from_depth_first(self):
        # All copies in (correlation 1, 2) issued before any kernel (3, 4).
        text = HEADER + "\n".join([
            'api,0,1,0,1,0,"cudaMemcpyAsync_v3020"', 'api,1,2,0,2,0,"cudaMemcpyAsync_v3020"',
            'api,2,3,0,3,0,"cudaLaunchKernel_v7000"', 'api,3,4,0,4,0,"cudaLaunchKernel_v7000"',
            'api,4,5,0,5,0,"cudaMemcpyAsync_v3020"', 'api,5,6,0,6,0,"cudaMemcpyAsync_v3020"',
            'api,6,90,0,7,0,"cudaDeviceSynchronize_v3020"',
            'copy,10,20,1,1,8,"HtoD"', 'copy,20,30,2,2,8,"HtoD"', 'kernel,30,40,1,3,0,"k"',
            'kernel,40,50,2,4,0,"k"', 'copy,50,60,1,5,8,"DtoH"', 'copy,60,70,2,6,8,"DtoH"',
        ]) + "\n"
        (run,) = self.runs_of(text)
        self.assertEqual(timeline.describe(run)["signature"], "Streams 2 breadth")

    def test_without_runtime_calls_an_idle_gpu_separates_runs(self):
        text = HEADER + "\n".join([
            'copy,0,10000,1,1,8,"HtoD"', 'kernel,12000,20000,1,2,0,"k"',
            'copy,21000,30000,1,3,8,"DtoH"',  # idle 2 and 1 us: one run
            'kernel,90000,95000,1,4,0,"k"',  # idle 60 us: the next run
        ]) + "\n"
        runs = self.runs_of(text, gap_us=50.0)
        self.assertEqual([len(run["work"]) for run in runs], [3, 1])
        self.assertEqual(timeline.describe(runs[0])["signature"], "Explicit 1")
        self.assertEqual(len(self.runs_of(text, gap_us=100.0)), 1)

    def test_detail_shows_each_engine_idle_time(self):
        runs = self.runs_of(TRACE)
        table = timeline.detail_table(runs[0], timeline.describe(runs[0]))
        # The second kernel starts at 15000 while the first runs until 20000: idle -5.0 us,
        # i.e. the two kernels overlapped; the second copy out waited 6 us after the first.
        self.assertIn("| kernel | 8 | 0 | 14.0 | 29.0 | 15.0 | -5.0 |", table)
        self.assertIn("| DtoH | 8 | 4096 | 30.0 | 39.0 | 9.0 | 6.0 |", table)

    def test_version_suffixes_are_dropped_from_call_names(self):
        self.assertEqual(timeline.call_name("cudaMemcpyAsync_v3020"), "cudaMemcpyAsync")
        self.assertEqual(timeline.call_name("my_var_name"), "my_var_name")


if __name__ == "__main__":
    unittest.main()
