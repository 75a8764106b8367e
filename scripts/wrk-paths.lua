-- wrk script of scripts/cluster.sh and scripts/soak-serve.sh: walks a list of request targets and counts the
-- answers by status.
--
--   wrk -t T -c C -d D -s scripts/wrk-paths.lua http://HOST:PORT -- PATHS_FILE
--
-- PATHS_FILE holds one request a line: `/path` or `/path<TAB>Accept value`. Thread i of T takes lines i, i+T, …
-- in order and starts again at its first when done. `done` prints one line, `WRK-SUMMARY {json}`: requests,
-- wrk's socket errors (connect, read, write, timeout), its non-2xx/3xx count (status), the answers by status,
-- latency percentiles in microseconds, and how many times the threads wrapped around their share.

local threads = {}
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

function init(args)
  local all = {}
  for line in io.lines(args[1]) do
    if line ~= "" then all[#all + 1] = line end
  end
  local count = tonumber(args[2]) or 1
  requests_list = {}
  for i = id + 1, #all, count do
    local path, accept = all[i]:match("^([^\t]+)\t?(.*)$")
    local headers = {}
    if accept ~= nil and accept ~= "" then headers["Accept"] = accept end
    requests_list[#requests_list + 1] = wrk.format("GET", path, headers)
  end
  index, wrapped = 0, 0
  statuses = {}
end

function request()
  index = index + 1
  if index > #requests_list then index, wrapped = 1, wrapped + 1 end
  return requests_list[index]
end

function response(status, headers, body)
  local key = tostring(status)
  statuses[key] = (statuses[key] or 0) + 1
end

function done(summary, latency, requests)
  local total, wrapped_total = {}, 0
  for _, thread in ipairs(threads) do
    wrapped_total = wrapped_total + (thread:get("wrapped") or 0)
    for status, n in pairs(thread:get("statuses") or {}) do total[status] = (total[status] or 0) + n end
  end
  local parts = {}
  for status, n in pairs(total) do parts[#parts + 1] = string.format('"%s":%d', status, n) end
  table.sort(parts)
  local e = summary.errors
  io.write(string.format('WRK-SUMMARY {"requests":%d,"durationMicroseconds":%d,"bytes":%d,' ..
    '"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"timeouts":%d,"statusErrors":%d,' ..
    '"statuses":{%s},"p50Microseconds":%d,"p99Microseconds":%d,"maxMicroseconds":%d,"wrapped":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.timeout, e.status,
    table.concat(parts, ","), latency:percentile(50), latency:percentile(99), latency.max, wrapped_total))
end
