#!/bin/bash
cd "$(dirname "$0")"
nvidia-smi -L
./ptr_probe
LD_LIBRARY_PATH=$PWD GOMP_DEBUG=0 ./acc_smoke
echo rc=$?
