#!/bin/sh
# Runs an MPI test program with only its own GPU visible, as a scheduler that gives
# each rank one GPU does (SLURM's --gpus-per-task sets CUDA_VISIBLE_DEVICES a rank):
# the node-local rank modulo the node's GPUs. The faces between the GPUs must still go
# by CUDA IPC (the test runs with OPSPLIT_DEVICE_IPC=require).
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
[ "$gpus" -gt 0 ] || gpus=1
CUDA_VISIBLE_DEVICES=$(( ${OMPI_COMM_WORLD_LOCAL_RANK:-0} % gpus ))
export CUDA_VISIBLE_DEVICES
unset OPSPLIT_GPUS  # each sees its GPU as device 0
exec "$@"
