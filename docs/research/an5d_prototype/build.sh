#!/bin/sh
# Builds the temporal-blocking prototype; the ptxas resource report goes to ptxas.log.
set -e
cd "$(dirname "$0")"
nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -Xcompiler -ffp-contract=off -Xptxas -v -o proto proto.cu 2> ptxas.log || { cat ptxas.log; exit 1; }
grep -E "error|warning" ptxas.log | grep -v "Function properties" | head -20 || true
