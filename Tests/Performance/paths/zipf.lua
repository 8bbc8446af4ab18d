-- wrk script: GET PREFIX<k> with k drawn from a Zipf distribution over 1..KEYS (exponent
-- ZIPF_S, default 1.0): a few keys are hot, the long tail is cold. The cumulative weights are
-- computed once in init(); each request is one random draw and a binary search.
-- Env: KEYS (default 200000), ZIPF_S (default 1.0), KEY_PREFIX (default /zipf/).
local nkeys = tonumber(os.getenv("KEYS") or "200000")
local s = tonumber(os.getenv("ZIPF_S") or "1.0")
local prefix = os.getenv("KEY_PREFIX") or "/zipf/"
local threads = 0
local cdf = {}

function setup(thread)
  thread:set("tid", threads)
  threads = threads + 1
end

function init(args)
  local total = 0
  for k = 1, nkeys do
    total = total + 1 / (k ^ s)
    cdf[k] = total
  end
  for k = 1, nkeys do cdf[k] = cdf[k] / total end
  -- A new sequence per run (seconds since 1970): a warm-up must not replay the measured run's keys.
  math.randomseed(os.time() * 7919 + (tid or 0))
end

function request()
  local u = math.random()
  local lo, hi = 1, nkeys
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if cdf[mid] < u then lo = mid + 1 else hi = mid end
  end
  return wrk.format("GET", prefix .. lo)
end
