extension OpenAPIDocument {
    /// The document's shared `components` (OpenAPI 3.1, JSON): the admin security scheme, the
    /// parameters, responses and schemas that the paths in ``base`` and the repository routes refer to.
    static let components = #"""
        {
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
        """#
}
