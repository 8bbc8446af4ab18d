extension OpenAPIDocument {
    /// The gateway's own endpoints and shared components (OpenAPI 3.1, JSON). The repository
    /// routes of the running configuration are added to `paths` by ``OpenAPIDocument/object(routes:)``.
    static let base = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "rds-gateway",
            "summary": "A caching HTTP gateway: repositories in front of upstream REST services.",
            "description": "The gateway's own endpoints (health, readiness, metrics, admin) and the repository routes of the running configuration. Repository routes answer with the upstream's answer (status, fields and body as the upstream sent them) or, for what the gateway itself decides or fails at, a Problem Details body with the whole error chain.",
            "license": {"name": "Proprietary"},
            "version": "0.0.0"
          },
          "paths": {
            "/health": {
              "get": {
                "summary": "Liveness",
                "operationId": "health",
                "tags": ["operations"],
                "responses": {
                  "200": {"description": "The gateway is up.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Health"}}}}
                }
              },
              "head": {
                "summary": "Liveness, without a body",
                "operationId": "healthHead",
                "tags": ["operations"],
                "responses": {"200": {"description": "The gateway is up."}}
              }
            },
            "/health/ready": {
              "get": {
                "summary": "Readiness: warm-up, disk cache and upstreams",
                "operationId": "ready",
                "tags": ["operations"],
                "responses": {
                  "200": {"description": "Ready for traffic.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Readiness"}}}},
                  "503": {"description": "Not ready (warm-up running or required and failed, disk cache folder unwritable).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Readiness"}}}}
                }
              },
              "head": {
                "summary": "Readiness, without a body",
                "operationId": "readyHead",
                "tags": ["operations"],
                "responses": {"200": {"description": "Ready."}, "503": {"description": "Not ready."}}
              }
            },
            "/metrics": {
              "get": {
                "summary": "Prometheus metrics",
                "operationId": "metrics",
                "tags": ["operations"],
                "responses": {
                  "200": {"description": "The Prometheus text format 0.0.4.", "content": {"text/plain": {"schema": {"type": "string"}}}}
                }
              },
              "head": {
                "summary": "Prometheus metrics, without a body",
                "operationId": "metricsHead",
                "tags": ["operations"],
                "responses": {"200": {"description": "Metrics are available."}}
              }
            },
            "/admin/": {
              "get": {
                "summary": "The live status page (HTML, no external assets)",
                "operationId": "statusPage",
                "tags": ["admin"],
                "security": [{}, {"adminToken": []}],
                "responses": {
                  "200": {"description": "The page; add `?follow=<path>` to follow resources.", "content": {"text/html": {"schema": {"type": "string"}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"}
                }
              }
            },
            "/admin/errors": {
              "get": {
                "summary": "The last 50 problem answers with their error chains, newest first",
                "operationId": "errors",
                "tags": ["admin"],
                "security": [{}, {"adminToken": []}],
                "responses": {
                  "200": {"description": "The problems.", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/RecentProblem"}}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"}
                }
              }
            },
            "/admin/openapi.json": {
              "get": {
                "summary": "This description, with the repository routes of the running configuration",
                "operationId": "openAPI",
                "tags": ["admin"],
                "security": [{}, {"adminToken": []}],
                "responses": {
                  "200": {"description": "OpenAPI 3.1.", "content": {"application/json": {"schema": {"type": "object", "required": ["openapi", "paths"]}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"}
                }
              }
            },
            "/admin/reload": {
              "post": {
                "summary": "Reload the configuration file (as SIGHUP does)",
                "operationId": "reload",
                "tags": ["admin"],
                "security": [{}, {"adminToken": []}],
                "responses": {
                  "200": {"description": "Reloaded; what changed.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ReloadReport"}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "422": {"$ref": "#/components/responses/Problem"}
                }
              }
            },
            "/admin/repositories": {
              "get": {
                "summary": "Every repository: settings, memory and disk levels",
                "operationId": "repositories",
                "tags": ["admin"],
                "security": [{}, {"adminToken": []}],
                "responses": {
                  "200": {"description": "The repositories.", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Repository"}}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"}
                }
              }
            },
            "/admin/repositories/{name}/state": {
              "get": {
                "summary": "A resource's state, with the state of each of its variants",
                "operationId": "state",
                "tags": ["admin"],
                "security": [{}, {"adminToken": []}],
                "parameters": [{"$ref": "#/components/parameters/RepositoryName"}, {"$ref": "#/components/parameters/ResourcePath"}],
                "responses": {
                  "200": {"description": "The state.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ResourceState"}}}},
                  "400": {"$ref": "#/components/responses/Problem"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/Problem"}
                }
              }
            },
            "/admin/repositories/{name}/refresh": {
              "post": {
                "summary": "Fetch a resource and every known variant again",
                "operationId": "refresh",
                "tags": ["admin"],
                "security": [{}, {"adminToken": []}],
                "parameters": [
                  {"$ref": "#/components/parameters/RepositoryName"},
                  {"$ref": "#/components/parameters/ResourcePath"},
                  {"name": "wait", "in": "query", "required": false, "description": "`false` answers 202 at once and refreshes in the background.", "schema": {"type": "string", "enum": ["true", "false"]}}
                ],
                "responses": {
                  "202": {"description": "Accepted; refreshing in the background.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Accepted"}}}},
                  "400": {"$ref": "#/components/responses/Problem"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"description": "No such repository (Problem Details), or the upstream's own 404 for the resource.", "content": {"*/*": {}}},
                  "default": {"$ref": "#/components/responses/UpstreamAnswer"}
                }
              }
            },
            "/admin/repositories/{name}/cache": {
              "delete": {
                "summary": "Purge one resource (all its variants), the resources carrying a tag, or, without `path` and `tag`, the whole repository; hard or soft",
                "operationId": "purge",
                "tags": ["admin"],
                "security": [{}, {"adminToken": []}],
                "parameters": [
                  {"$ref": "#/components/parameters/RepositoryName"},
                  {"name": "path", "in": "query", "required": false, "description": "The resource's path and query, as a client requests it.", "schema": {"type": "string"}},
                  {"name": "tag", "in": "query", "required": false, "description": "Purge every resource carrying this tag (the repository's tag field, `Surrogate-Key` by default).", "schema": {"type": "string"}},
                  {"name": "soft", "in": "query", "required": false, "description": "`true` marks the resources stale instead of dropping them: the next read revalidates while serving them.", "schema": {"type": "string", "enum": ["true", "false"]}}
                ],
                "responses": {
                  "200": {"description": "Purged.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Purged"}}}},
                  "400": {"$ref": "#/components/responses/Problem"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/Problem"},
                  "500": {"$ref": "#/components/responses/Problem"}
                }
              }
            },
            "/admin/repositories/{name}/fetch": {
              "delete": {
                "summary": "Cancel the fetch of a resource (and its variants) under way: subscribers see `canceled`, then its resting state; its waiters get 503 `fetch_cancelled`",
                "operationId": "cancelFetch",
                "tags": ["admin"],
                "security": [{}, {"adminToken": []}],
                "parameters": [{"$ref": "#/components/parameters/RepositoryName"}, {"$ref": "#/components/parameters/ResourcePath"}],
                "responses": {
                  "200": {"description": "How many fetches were cancelled.", "content": {"application/json": {"schema": {"type": "object", "required": ["repository", "key", "cancelled"], "properties": {"repository": {"type": "string"}, "key": {"type": "string"}, "cancelled": {"type": "integer", "minimum": 0}}}}}},
                  "400": {"$ref": "#/components/responses/Problem"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/Problem"}
                }
              }
            },
            "/admin/repositories/{name}/writes": {
              "get": {
                "summary": "The repository's outbox: the counts of pending writes and dead letters, and the 500 oldest of them",
                "operationId": "listQueuedWrites",
                "tags": ["admin"],
                "security": [{}, {"adminToken": []}],
                "parameters": [{"$ref": "#/components/parameters/RepositoryName"}],
                "responses": {
                  "200": {"description": "The outbox.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/QueuedWrites"}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/Problem"}
                }
              }
            },
            "/admin/repositories/{name}/writes/{id}": {
              "parameters": [{"$ref": "#/components/parameters/RepositoryName"}, {"$ref": "#/components/parameters/WriteID"}],
              "get": {
                "summary": "One queued write (pending or dead letter)",
                "operationId": "showQueuedWrite",
                "tags": ["admin"],
                "security": [{}, {"adminToken": []}],
                "responses": {
                  "200": {"description": "The write.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/QueuedWrite"}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/Problem"}
                }
              },
              "delete": {
                "summary": "Discard a pending write or a dead letter (it is never sent)",
                "operationId": "discardQueuedWrite",
                "tags": ["admin"],
                "security": [{}, {"adminToken": []}],
                "responses": {
                  "200": {"description": "Discarded.", "content": {"application/json": {"schema": {"type": "object", "required": ["repository", "discarded"], "properties": {"repository": {"type": "string"}, "discarded": {"type": "string"}}}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/Problem"}
                }
              }
            },
            "/admin/repositories/{name}/writes/{id}/retry": {
              "post": {
                "summary": "Send a dead letter back to the queue, for delivery at once",
                "operationId": "retryQueuedWrite",
                "tags": ["admin"],
                "security": [{}, {"adminToken": []}],
                "parameters": [{"$ref": "#/components/parameters/RepositoryName"}, {"$ref": "#/components/parameters/WriteID"}],
                "responses": {
                  "202": {"description": "Queued again.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/QueuedWrite"}}}},
                  "400": {"$ref": "#/components/responses/Problem"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/Problem"}
                }
              }
            },
            "/events": {
              "get": {
                "summary": "Server-Sent Events of many resources on one stream: each topic a path or a route template; ids, retry, resume with Last-Event-ID (or lastEventID) from a bounded buffer, a refetch event when it cannot",
                "operationId": "events",
                "tags": ["live"],
                "parameters": [
                  {"name": "topic", "in": "query", "required": true, "description": "A resource path (`/weather/paris`) or a route template (`/weather/{city}`); repeat for more (at most 1024).", "schema": {"type": "array", "items": {"type": "string"}, "minItems": 1}, "style": "form", "explode": true},
                  {"name": "lastEventID", "in": "query", "required": false, "description": "Resume after this event id (for EventSource, which cannot set Last-Event-ID on its first request).", "schema": {"type": "string"}},
                  {"name": "Last-Event-ID", "in": "header", "required": false, "description": "Resume after this event id.", "schema": {"type": "string"}}
                ],
                "responses": {
                  "200": {"description": "The event stream (`id:`, `event: initialized|loading|loaded|failed|refetch`, one JSON `data:` line with `path` and `repository`).", "content": {"text/event-stream": {"schema": {"type": "string"}}}},
                  "400": {"$ref": "#/components/responses/Problem"},
                  "405": {"$ref": "#/components/responses/Problem"}
                }
              }
            },
            "/hooks/{repository}": {
              "post": {
                "summary": "The upstream's change notification: refresh, invalidate or soft-purge resources by path or tag; signed with HMAC-SHA256",
                "operationId": "hook",
                "tags": ["live"],
                "parameters": [
                  {"name": "repository", "in": "path", "required": true, "description": "A repository with a hook secret.", "schema": {"type": "string"}},
                  {"name": "X-RDS-Timestamp", "in": "header", "required": true, "description": "Unix time in seconds; within the hook's window of the gateway's clock.", "schema": {"type": "string"}},
                  {"name": "X-RDS-Signature", "in": "header", "required": true, "description": "`sha256=` and the hex HMAC-SHA256 of `<timestamp>.<body>` under the hook secret.", "schema": {"type": "string"}}
                ],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ChangeRequest"}}}},
                "responses": {
                  "200": {"description": "Applied.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/HookAnswer"}}}},
                  "400": {"$ref": "#/components/responses/Problem"},
                  "401": {"$ref": "#/components/responses/Problem"},
                  "404": {"$ref": "#/components/responses/Problem"},
                  "405": {"$ref": "#/components/responses/Problem"},
                  "500": {"$ref": "#/components/responses/Problem"}
                }
              }
            }
          },
          "components": {
            "securitySchemes": {
              "adminToken": {"type": "http", "scheme": "bearer", "description": "`server.adminToken`; without one, loopback clients are admitted."}
            },
            "parameters": {
              "RepositoryName": {"name": "name", "in": "path", "required": true, "description": "A repository's name.", "schema": {"type": "string"}},
              "ResourcePath": {"name": "path", "in": "query", "required": true, "description": "The resource's path and query, as a client requests it (e.g. `/weather/paris`).", "schema": {"type": "string"}},
              "WriteID": {"name": "id", "in": "path", "required": true, "description": "A queued write's id, as its `Location` names it.", "schema": {"type": "string"}}
            },
            "responses": {
              "Problem": {"description": "Problem Details (RFC 9457) with the error chain.", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
              "Unauthorized": {"description": "The admin token is missing or wrong.", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
              "Forbidden": {"description": "No admin token is set and the caller is not on loopback.", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
              "UpstreamAnswer": {"description": "The upstream's answer (any status, fields and body, as the upstream sent them; 206/304/412/416 from the stored answer), or a Problem Details body when the gateway could not get one.", "content": {"*/*": {}}}
            },
            "schemas": {
              "Health": {
                "type": "object",
                "required": ["status", "service", "version"],
                "properties": {"status": {"const": "ok"}, "service": {"const": "rds-gateway"}, "version": {"type": "string"}}
              },
              "Readiness": {
                "type": "object",
                "required": ["ready", "warm_up", "disk_cache", "disk_levels", "shared_cache", "upstreams"],
                "properties": {
                  "ready": {"type": "boolean"},
                  "warm_up": {"enum": ["running", "done", "failed"]},
                  "warm_up_failures": {"type": "array", "items": {"type": "object", "required": ["repository", "key", "error"], "properties": {"repository": {"type": "string"}, "key": {"type": "string"}, "error": {"type": "string"}}}},
                  "disk_cache": {"enum": ["writable", "unwritable", "degraded", "none"]},
                  "disk_cache_error": {"type": "string"},
                  "disk_levels": {"type": "array", "items": {"type": "object", "required": ["repository", "status"], "properties": {"repository": {"type": "string"}, "status": {"enum": ["ok", "degraded", "unavailable"]}, "write_failures": {"type": "integer", "minimum": 0}}}},
                  "shared_cache": {"enum": ["ok", "degraded", "none"]},
                  "shared_cache_error": {"type": "string"},
                  "upstreams": {"type": "array", "items": {"type": "object", "required": ["service", "status"], "properties": {"service": {"type": "string"}, "status": {"type": "string"}, "consecutive_failures": {"type": "integer", "minimum": 0}}}},
                  "write_queues": {"type": "array", "items": {"type": "object", "required": ["repository", "pending", "dead_letters", "oldest_pending_age_seconds"], "properties": {"repository": {"type": "string"}, "pending": {"type": "integer", "minimum": 0}, "dead_letters": {"type": "integer", "minimum": 0}, "oldest_pending_age_seconds": {"type": "integer", "minimum": 0}}}}
                }
              },
              "ReloadReport": {
                "type": "object",
                "required": ["status", "added", "removed", "changed", "kept", "restartRequired"],
                "properties": {
                  "status": {"const": "reloaded"}, "config": {"type": "string"},
                  "added": {"type": "array", "items": {"type": "string"}}, "removed": {"type": "array", "items": {"type": "string"}},
                  "changed": {"type": "array", "items": {"type": "string"}}, "kept": {"type": "array", "items": {"type": "string"}},
                  "restartRequired": {"type": "array", "items": {"type": "string"}}
                }
              },
              "Repository": {
                "type": "object",
                "required": ["name", "route", "service", "methods", "policy", "disk"],
                "properties": {
                  "name": {"type": "string"}, "route": {"type": "string"}, "service": {"type": "string"},
                  "upstreamPath": {"type": "string"}, "methods": {"type": "array", "items": {"type": "string"}},
                  "readWrite": {"type": "boolean"}, "policy": {"enum": ["cache-first", "network-first"]},
                  "memory": {"$ref": "#/components/schemas/LevelStatistics"},
                  "disk": {"type": "object", "required": ["status"], "properties": {"status": {"enum": ["ok", "degraded", "unavailable", "off"]}}}
                }
              },
              "LevelStatistics": {
                "type": "object",
                "required": ["entries", "bytes", "evictions"],
                "properties": {"entries": {"type": "integer", "minimum": 0}, "bytes": {"type": "integer", "minimum": 0}, "evictions": {"type": "integer", "minimum": 0}}
              },
              "ResourceState": {
                "type": "object",
                "required": ["state"],
                "properties": {
                  "state": {"enum": ["initialized", "loading", "loaded", "failed"]},
                  "key": {"type": "string"},
                  "origin": {"type": "string"},
                  "at": {"type": "string"},
                  "value": {"$ref": "#/components/schemas/StoredValue"},
                  "previous": {"oneOf": [{"$ref": "#/components/schemas/StoredValue"}, {"type": "null"}]},
                  "cached": {"oneOf": [{"$ref": "#/components/schemas/StoredValue"}, {"type": "null"}]},
                  "error": {"$ref": "#/components/schemas/ErrorLink"},
                  "variants": {"type": "array", "items": {"$ref": "#/components/schemas/ResourceState"}},
                  "source": {"enum": ["memory", "disk", "upstream", null]},
                  "expiresAt": {"type": ["string", "null"]},
                  "nextRefreshAt": {"type": ["string", "null"]},
                  "waiters": {"type": "integer", "minimum": 0},
                  "tags": {"type": "array", "items": {"type": "string"}},
                  "fields": {"type": "object", "additionalProperties": {"type": "string"}},
                  "write": {"$ref": "#/components/schemas/WriteState"},
                  "delete": {"$ref": "#/components/schemas/WriteState"}
                }
              },
              "StoredValue": {
                "type": "object",
                "required": ["status"],
                "properties": {"status": {"type": "integer"}, "contentType": {"type": "string"}, "etag": {"type": "string"}, "body": {}, "bodyBase64": {"type": "string"}}
              },
              "RecentProblem": {
                "type": "object",
                "required": ["at", "method", "path", "status", "requestId", "error"],
                "properties": {
                  "at": {"type": "string"}, "method": {"type": "string"}, "path": {"type": "string"},
                  "status": {"type": "integer"}, "requestId": {"type": "string"},
                  "error": {"type": "string", "description": "The chain, outermost link first: `code: message {details} <- …`."}
                }
              },
              "Accepted": {
                "type": "object",
                "required": ["status", "key"],
                "properties": {"status": {"const": "accepted"}, "key": {"type": "string"}, "variants": {"type": "integer", "minimum": 0}}
              },
              "Purged": {
                "type": "object",
                "required": ["repository", "purged"],
                "properties": {"repository": {"type": "string"}, "purged": {"type": "string"}, "count": {"type": "integer", "minimum": 0}, "soft": {"type": "boolean"}}
              },
              "ChangeRequest": {
                "type": "object",
                "required": ["action"],
                "properties": {
                  "action": {"enum": ["refresh", "invalidate", "soft-purge"]},
                  "paths": {"type": "array", "items": {"type": "string"}},
                  "tags": {"type": "array", "items": {"type": "string"}}
                }
              },
              "HookAnswer": {
                "type": "object",
                "required": ["id", "repository", "action", "affected"],
                "properties": {"id": {"type": "string"}, "repository": {"type": "string"}, "action": {"type": "string"}, "affected": {"type": "integer", "minimum": 0}}
              },
              "Problem": {
                "type": "object",
                "required": ["type", "title", "status", "detail", "code"],
                "properties": {
                  "type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"},
                  "detail": {"type": "string"}, "instance": {"type": ["string", "null"]}, "code": {"type": "string"},
                  "repository": {"type": ["string", "null"]},
                  "inner": {"oneOf": [{"$ref": "#/components/schemas/ErrorLink"}, {"type": "null"}]},
                  "element": {"$ref": "#/components/schemas/WrittenElement"}
                }
              },
              "QueuedWrite": {
                "type": "object",
                "required": ["id", "kind", "path", "acceptedAt", "attempts", "status", "element", "location"],
                "properties": {
                  "id": {"type": "string"}, "kind": {"enum": ["write", "delete"]}, "path": {"type": "string"},
                  "acceptedAt": {"type": "string"}, "attempts": {"type": "integer"}, "status": {"enum": ["pending", "dead", "queued"]},
                  "element": {"$ref": "#/components/schemas/WrittenElement"}, "location": {"type": "string"},
                  "nextAttemptAt": {"type": "string"}, "lastError": {"type": "string"}, "deadReason": {"type": "string"}
                }
              },
              "QueuedWrites": {
                "type": "object",
                "required": ["repository", "queue", "writes"],
                "properties": {
                  "repository": {"type": "string"}, "queue": {"type": "boolean"}, "pending": {"type": "integer"},
                  "dead": {"type": "integer"}, "writes": {"type": "array", "items": {"$ref": "#/components/schemas/QueuedWrite"}}
                }
              },
              "WriteState": {
                "type": "object",
                "required": ["state"],
                "properties": {
                  "state": {"enum": ["initial", "processing", "succeeded", "failed"]},
                  "since": {"type": "string"}, "queued": {"type": "boolean"}, "at": {"type": "string"}, "status": {"type": ["integer", "null"]},
                  "element": {"oneOf": [{"$ref": "#/components/schemas/WrittenElement"}, {"type": "null"}]},
                  "error": {"$ref": "#/components/schemas/ErrorLink"}
                }
              },
              "WrittenElement": {
                "type": "object",
                "required": ["method", "size", "excerpt", "truncated"],
                "properties": {
                  "method": {"type": "string"}, "contentType": {"type": "string"}, "size": {"type": "integer"},
                  "excerpt": {"type": "string"}, "truncated": {"type": "boolean"}, "idempotencyKey": {"type": "string"}
                }
              },
              "ErrorLink": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {
                  "code": {"type": "string"}, "message": {"type": "string"},
                  "details": {"type": "object"},
                  "inner": {"oneOf": [{"$ref": "#/components/schemas/ErrorLink"}, {"type": "null"}]}
                }
              }
            }
          }
        }
        """#
}
