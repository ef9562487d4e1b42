set -x
lscpu | head -30; numactl -H 2>&1 | head; nvidia-smi topo -m 2>&1; cat /proc/self/status | grep -i allowed
ls /sys/devices/system/node/
nvcc -O2 -arch=sm_90 -o /tmp/numa_probe bench/results/h100-2026-11-21-s7-link-drift/link_drift_probe.cu && /tmp/numa_probe 2
