# A container image of ahd-replay: `docker build -t ahd-replay .`, then,
# from the top of a repository with AHD eval reports,
#
#   docker run --rm -v "$PWD:/repo" -w /repo ahd-replay verify --all
#
# The build stage compiles and installs into /out; the runtime stage holds
# the binary, its data files (the sidecar JSON Schema, the hook scripts),
# git and the shared libraries the binary links, nothing else.

FROM debian:12-slim AS build
RUN apt-get update && \
    apt-get install -y --no-install-recommends autoconf automake libtool \
        pkg-config make gcc libc6-dev libgit2-dev libyaml-dev \
        libjansson-dev libssl-dev && \
    rm -rf /var/lib/apt/lists/*
WORKDIR /src
# .dockerignore lets in only the sources the build needs; the image has
# no shell to complete in, so no completion is installed.
COPY . .
RUN mkdir -p m4 && autoreconf -fi && \
    ./configure --prefix=/usr --with-bash-completion-dir=no \
        --with-zsh-completion-dir=no && make -j"$(nproc)" && \
    make install DESTDIR=/out && /out/usr/bin/ahd-replay --version

FROM debian:12-slim
# The libraries are those `ldd ahd-replay` names on Debian 12 (the test
# t/t7100-dockerfile.sh compares them); git runs the hooks and `--at`.
RUN apt-get update && \
    apt-get install -y --no-install-recommends git libgit2-1.5 \
        libyaml-0-2 libjansson4 libssl3 && \
    rm -rf /var/lib/apt/lists/*
COPY --from=build /out/usr/bin/ahd-replay /usr/bin/ahd-replay
COPY --from=build /out/usr/share/ahd-replay /usr/share/ahd-replay
# A work tree mounted from the host belongs to the host's user, not to
# the container's: git and libgit2 refuse it unless it is a safe
# directory.  Only the mount point /repo is trusted (libgit2 1.5 on
# Debian 12 ignores the "*" wildcard), so mount the work tree there.
RUN git config --system --add safe.directory /repo
WORKDIR /repo
ENTRYPOINT ["ahd-replay"]
CMD ["--help"]
