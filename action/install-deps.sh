#!/bin/sh
# Step "Install the build dependencies" of action.yml: the libraries
# ahd-replay links (needed on a cache hit too) and the tools that build
# it, with apt; nothing when they are all there already.
set -eu

pkgs="autoconf automake make gcc pkg-config libgit2-dev libyaml-dev libjansson-dev libssl-dev"

if command -v autoreconf gcc make pkg-config >/dev/null 2>&1 &&
	pkg-config --exists libgit2 yaml-0.1 jansson libcrypto
then
	echo "ahd-replay: the build dependencies are installed"
	exit 0
fi
if ! command -v apt-get >/dev/null 2>&1
then
	echo "::error title=ahd-replay::no apt-get on this runner: install $pkgs (or their equivalents) before this action"
	exit 2
fi
sudo=
if test "$(id -u)" != 0
then
	sudo="sudo -n"
fi
# shellcheck disable=SC2086
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $pkgs
