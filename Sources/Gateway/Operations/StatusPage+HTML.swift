extension StatusPage {
    /// The page's HTML, CSS and JavaScript. Values from the gateway are inserted as text nodes
    /// only, never as markup.
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>rds-gateway status</title>
        <style>
          body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1d2330; background: #f7f8fa; }
          h1 { font-size: 1.3rem; margin: 0 0 .2rem; } h2 { font-size: 1.05rem; margin: 1.4rem 0 .4rem; }
          table { border-collapse: collapse; width: 100%; background: #fff; }
          th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #e3e6ec; vertical-align: top; }
          th { background: #eef1f6; font-weight: 600; }
          code, .mono { font-family: ui-monospace, monospace; font-size: 12.5px; }
          .ok, .loaded, .done, .writable { color: #137333; } .failed, .failing, .unwritable, .unavailable, .unreachable { color: #b3261e; }
          .degraded, .loading, .running, .initialized { color: #9a6700; }
          #summary span { margin-right: 1.2rem; } .muted { color: #6b7385; }
          form { margin: .4rem 0; } input { width: 20rem; }
        </style>
        </head>
        <body>
        <h1>rds-gateway</h1>
        <div id="summary" class="muted">loading…</div>
        <h2>Repositories</h2>
        <table id="repositories"><thead><tr><th>name</th><th>route</th><th>policy</th><th>hit ratio</th>
          <th>memory</th><th>disk</th></tr></thead><tbody></tbody></table>
        <h2>Upstreams</h2>
        <table id="upstreams"><thead><tr><th>service</th><th>status</th><th>failures in a row</th><th>last error</th>
          <th>mean latency</th></tr></thead><tbody></tbody></table>
        <h2>Resources (live)</h2>
        <form id="follow"><input name="path" placeholder="/weather/paris" aria-label="path to follow">
          <button>Follow</button></form>
        <table id="resources"><thead><tr><th>path</th><th>state</th><th>origin</th><th>at</th><th>value</th>
          <th>error</th></tr></thead><tbody></tbody></table>
        <h2>Recent errors</h2>
        <table id="errors"><thead><tr><th>at</th><th>request</th><th>status</th><th>error chain</th></tr></thead>
          <tbody></tbody></table>
        <h2>Queued writes</h2>
        <table id="writes"><thead><tr><th>repository</th><th>write</th><th>status</th><th>attempts</th>
          <th>next attempt or reason</th><th>last error</th></tr></thead><tbody></tbody></table>
        <script>
        "use strict";
        const followed = new Map();
        function cell(text, cls) {
          const td = document.createElement("td");
          td.textContent = text === undefined || text === null ? "" : String(text);
          if (cls) td.className = cls;
          return td;
        }
        function fill(id, rows) {
          const body = document.querySelector("#" + id + " tbody");
          body.replaceChildren(...rows.map(cells => {
            const tr = document.createElement("tr");
            tr.append(...cells);
            return tr;
          }));
        }
        function bytes(n) {
          if (n === undefined) return "";
          return n < 1024 ? n + " B" : n < 1048576 ? (n / 1024).toFixed(1) + " KiB" : (n / 1048576).toFixed(1) + " MiB";
        }
        function samples(text, name) {
          const found = [];
          for (const line of text.split("\n")) {
            if (!line.startsWith(name + "{")) continue;
            const end = line.lastIndexOf("}");
            const labels = {};
            for (const pair of line.slice(name.length + 1, end).matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]] = pair[2];
            found.push({ labels, value: Number(line.slice(end + 1)) });
          }
          return found;
        }
        function sum(list, test) { return list.filter(s => test(s.labels)).reduce((a, s) => a + s.value, 0); }
        function chain(link) {
          const parts = [];
          for (let l = link; l; l = l.inner) parts.push(l.code + ": " + l.message);
          return parts.join(" ← ");
        }
        function follow(path) {
          if (!path || followed.has(path)) return;
          const row = { path, state: "connecting" };
          followed.set(path, row);
          const source = new EventSource(path);
          for (const name of ["initialized", "loading", "loaded", "failed"]) {
            source.addEventListener(name, event => {
              const data = JSON.parse(event.data);
              const value = data.value || data.cached || data.previous;
              Object.assign(row, { state: data.state, origin: data.origin || "", at: data.at || "",
                value: value ? value.status + " " + JSON.stringify(value.body === undefined ? "" : value.body).slice(0, 120) : "",
                error: data.error ? chain(data.error) : "" });
              renderResources();
            });
          }
          source.onerror = () => { row.state = row.state === "connecting" ? "unreachable" : row.state; renderResources(); };
          renderResources();
        }
        function renderResources() {
          fill("resources", [...followed.values()].map(r => {
            const path = cell(r.path, "mono");
            const tr = [path, cell(r.state, r.state), cell(r.origin), cell(r.at), cell(r.value, "mono"), cell(r.error, "mono")];
            return tr;
          }));
          document.querySelectorAll("#resources tbody tr").forEach((tr, i) => {
            const r = [...followed.values()][i];
            tr.dataset.path = r.path;
            tr.dataset.state = r.state;
          });
        }
        async function json(url) {
          const answer = await fetch(url, { cache: "no-store" });
          if (!answer.ok && answer.status !== 503) throw new Error(url + ": " + answer.status);
          return answer.json();
        }
        async function refresh() {
          try {
            const [repositories, ready, metrics, errors] = await Promise.all([
              json("/admin/repositories"), json("/health/ready"),
              fetch("/metrics", { cache: "no-store" }).then(a => a.text()), json("/admin/errors")]);
            const lookups = samples(metrics, "rds_gateway_cache_lookups_total");
            fill("repositories", repositories.map(r => {
              const hits = sum(lookups, l => l.repository === r.name && (l.result === "hit" || l.result === "stale"));
              const all = sum(lookups, l => l.repository === r.name);
              const memory = r.memory ? r.memory.entries + " entries, " + bytes(r.memory.bytes) : "";
              const disk = r.disk.status + (r.disk.entries !== undefined ? ", " + r.disk.entries + " entries, " + bytes(r.disk.bytes) : "");
              return [cell(r.name), cell(r.route, "mono"), cell(r.policy),
                cell(all ? (100 * hits / all).toFixed(1) + " % of " + all : "no reads"), cell(memory), cell(disk, r.disk.status)];
            }));
            const latencySum = samples(metrics, "rds_gateway_upstream_request_duration_seconds_sum");
            const latencyCount = samples(metrics, "rds_gateway_upstream_request_duration_seconds_count");
            fill("upstreams", ready.upstreams.map(u => {
              const count = sum(latencyCount, l => l.service === u.service);
              const seconds = sum(latencySum, l => l.service === u.service);
              return [cell(u.service), cell(u.status, u.status), cell(u.consecutive_failures), cell(u.last_error || ""),
                cell(count ? (1000 * seconds / count).toFixed(1) + " ms over " + count : "no calls")];
            }));
            fill("errors", errors.map(e => [cell(e.at), cell(e.method + " " + e.path, "mono"), cell(e.status),
              cell(e.error, "mono")]));
            const outboxes = await Promise.all((ready.write_queues || [])
              .map(q => json("/admin/repositories/" + encodeURIComponent(q.repository) + "/writes")));
            fill("writes", outboxes.flatMap(o => o.writes.map(w => [cell(o.repository),
              cell(w.element.method + " " + w.path + " #" + w.id, "mono"), cell(w.status, w.status === "dead" ? "failed" : "loading"),
              cell(w.attempts), cell(w.deadReason || w.nextAttemptAt || ""), cell(w.lastError || "", "mono")])));
            const summary = document.getElementById("summary");
            summary.replaceChildren();
            for (const [label, value, cls] of [["ready", ready.ready ? "yes" : "no", ready.ready ? "ok" : "failed"],
                ["warm-up", ready.warm_up, ready.warm_up], ["disk cache", ready.disk_cache, ready.disk_cache],
                ["updated", new Date().toISOString().slice(11, 19), "muted"]]) {
              const span = document.createElement("span");
              span.textContent = label + ": " + value;
              span.className = cls;
              summary.append(span);
            }
            for (const r of repositories) for (const path of r.warmUp || []) follow(path);
          } catch (error) {
            document.getElementById("summary").textContent = "could not read the gateway: " + error.message;
          }
        }
        document.getElementById("follow").addEventListener("submit", event => {
          event.preventDefault();
          follow(event.target.path.value.trim());
          event.target.reset();
        });
        for (const path of new URLSearchParams(location.search).getAll("follow")) follow(path);
        refresh();
        setInterval(refresh, 2000);
        </script>
        </body>
        </html>
        """#
}
