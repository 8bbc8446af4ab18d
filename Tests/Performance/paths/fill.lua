-- wrk script: GET KEY_PREFIX<k> once for each k in 1..KEYS, in order (one wrk thread), then
-- stop and create the file FILL_DONE: fills a cache with every key of a row before it is
-- measured. wrk's main thread sleeps its whole -d, so the caller waits for FILL_DONE and
-- ends wrk with SIGINT.
-- Env: KEYS (default 200000), KEY_PREFIX (default /zipf/), FILL_DONE (a path).
local nkeys = tonumber(os.getenv("KEYS") or "200000")
local prefix = os.getenv("KEY_PREFIX") or "/zipf/"
local done = os.getenv("FILL_DONE")
local sent, answered = 0, 0

function request()
  sent = sent % nkeys + 1
  return wrk.format("GET", prefix .. sent)
end

function response(status, headers, body)
  answered = answered + 1
  if answered == nkeys then
    if done then io.open(done, "w"):close() end
    wrk.thread:stop()
  end
end
