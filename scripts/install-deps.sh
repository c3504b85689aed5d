#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what sched_power needs to build, test and run its VM bench on
# Debian 12.  Idempotent; run as root (or with sudo).
set -euo pipefail
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
# arm64 packages (make arm64-fetch downloads them with apt-get download)
$SUDO dpkg --add-architecture arm64
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends \
	build-essential linux-headers-amd64 linux-image-amd64 kmod cpio \
	qemu-system-x86 busybox-static trace-cmd rt-app linux-perf \
	libcmocka-dev libjson-c-dev gnuplot-nox sparse \
	clang-14 libclang-rt-14-dev valgrind \
	pkg-config libtracecmd-dev libtraceevent-dev libtracefs-dev fonts-dejavu-core \
	dkms gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm device-tree-compiler \
	linux-source-6.1 dwarves python3-sphinx \
	flex bison bc libelf-dev libssl-dev
