/// The default configuration compiled into the binary, used when `Config/gateway.json` is not
/// found relative to the working directory. A test keeps it equal to `Config/gateway.json`.
enum DefaultConfiguration {
    /// The name errors show for it.
    static let name = "<built-in Config/gateway.json>"

    /// The JSON text of `Config/gateway.json`.
    static let json = #"""
        {
          "server": {
            "host": "127.0.0.1",
            "port": 8080,
            "adminToken": "${RDS_ADMIN_TOKEN:-}",
            "limits": { "maxHeaderBytes": 16384, "maxBodyBytes": 1048576 },
            "timeouts": { "idle": 60, "request": 30, "shutdownGrace": 10 }
          },
          "cache": {
            "memory": { "maxBytes": 67108864, "maxEntries": 10000 },
            "disk": { "path": "${RDS_CACHE_DIR:-}", "maxBytes": 268435456 }
          },
          "logging": { "level": "${RDS_LOG_LEVEL:-info}" },
          "services": {
            "demo": {
              "baseURL": "embedded:demo",
              "timeouts": { "connect": 1, "firstByte": 3, "total": 5 },
              "headers": { "User-Agent": "rds-gateway" }
            }
          },
          "repositories": {
            "weather": {
              "route": "/weather/{city}",
              "service": "demo",
              "upstreamPath": "/weather/{city}",
              "methods": ["GET", "HEAD"],
              "policy": "cache-first",
              "minTTL": 5,
              "maxTTL": 3600,
              "defaultTTL": 60,
              "staleWhileRevalidate": 10,
              "staleIfError": 600,
              "refreshAhead": 0.8,
              "warmUp": ["/weather/london"],
              "cacheKey": { "query": "*", "headers": ["Accept-Language"] },
              "refresh": { "keys": ["subscribed", "warm-up"], "beforeExpiry": 0.8, "jitter": 0.1 },
              "hook": { "secret": { "env": "RDS_HOOK_SECRET" }, "insecureDefault": "rds-demo-hook-secret" }
            },
            "locations": {
              "route": "/locations",
              "service": "demo",
              "upstreamPath": "/locations",
              "policy": "cache-first",
              "defaultTTL": 300,
              "staleIfError": 3600,
              "cacheKey": { "query": ["name"] }
            },
            "notes": {
              "route": "/notes/{id}",
              "service": "demo",
              "upstreamPath": "/notes/{id}",
              "methods": ["GET", "HEAD", "PUT", "PATCH", "DELETE"],
              "policy": "network-first",
              "defaultTTL": 30,
              "staleIfError": 300,
              "writes": { "queue": { "maxPending": 1000, "maxAge": 3600 } },
              "hook": { "secret": { "env": "RDS_HOOK_SECRET" }, "insecureDefault": "rds-demo-hook-secret" }
            }
          }
        }
        """#
}
