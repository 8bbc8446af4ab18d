# rds-gateway container image.
#
#   docker build -t rds-gateway .
#   docker run --rm -p 8080:8080 rds-gateway
#
# Environment overrides (all optional):
#   RDS_CONFIG     configuration file            (default /app/Config/gateway.json)
#   RDS_HOST       address to bind               (default 0.0.0.0 in the image)
#   RDS_PORT       port to bind                  (default 8080)
#   RDS_CACHE_DIR  disk cache folder (a volume)  (default /var/cache/rds-gateway)
#   RDS_LOG_LEVEL  debug, info, warning, error   (default info)
#   RDS_ADMIN_TOKEN  bearer token for /admin     (default none: admin answers loopback clients only)
#   plus any ${VAR} the configuration file names (API keys of real upstreams).
#
# Tests/Docker/rootfs-check.sh proves this runtime stage without a Docker engine: it reads
# RUNTIME_PACKAGES and the user set-up below, builds a matching Debian root with debootstrap and
# runs the binary inside it with chroot. Keep both in step.

ARG SWIFT_IMAGE=swift:6.3-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

# ---- build: the official Swift image (it carries libcurl4-openssl-dev for FoundationNetworking) ----
FROM ${SWIFT_IMAGE} AS build
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product rds-gateway \
    && install -D -s -m 0755 "$(swift build -c release --show-bin-path)/rds-gateway" /staging/rds-gateway

# ---- runtime: slim Debian with only what the binary links beyond glibc and libstdc++ ----
FROM ${RUNTIME_IMAGE}
# libcurl4: FoundationNetworking (URLSession, used for https:// upstreams) links libcurl.so.4.
# ca-certificates: the trust store libcurl reads for those https:// upstreams.
ARG RUNTIME_PACKAGES="libcurl4 ca-certificates"
RUN apt-get update \
    && apt-get install -y --no-install-recommends ${RUNTIME_PACKAGES} \
    && rm -rf /var/lib/apt/lists/*
RUN useradd --no-create-home --user-group --uid 10001 --home-dir /app --shell /usr/sbin/nologin rds \
    && mkdir -p /app /var/cache/rds-gateway \
    && chown rds:rds /var/cache/rds-gateway

COPY --from=build /staging/rds-gateway /usr/local/bin/rds-gateway
COPY Config /app/Config

WORKDIR /app
ENV RDS_CONFIG=/app/Config/gateway.json \
    RDS_HOST=0.0.0.0 \
    RDS_PORT=8080 \
    RDS_CACHE_DIR=/var/cache/rds-gateway \
    RDS_LOG_LEVEL=info
VOLUME ["/var/cache/rds-gateway"]
EXPOSE 8080
USER rds:rds
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 CMD ["rds-gateway", "healthcheck"]
ENTRYPOINT ["rds-gateway"]
