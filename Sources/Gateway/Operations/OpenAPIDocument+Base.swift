extension OpenAPIDocument {
    /// The gateway's own endpoints (OpenAPI 3.1, JSON), without `components` (see
    /// ``components``). The repository routes of the running configuration are added to `paths`
    /// by ``OpenAPIDocument/object(routes:)``.
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
          }
        }
        """#
}
