-- wrk script for scripts/bench.ts. Mode is the first argument after `--`:
--   clicks <id>...  GET /<id> with rotating real User-Agents, Referers, utm strings and public
--                   X-Forwarded-For addresses (the binary trusts 127.0.0.1, so countries are looked up),
--                   from 2,000 addresses that repeat: repeating visitors
--   clicks-new <first> <id>...  the same mix, but every click from a public address never sent
--                   before (a link going viral: each visitor is new); <first> numbers the run's
--                   first address, so that the runs of one benchmark never repeat one
--   clicks-people, clicks-new-people  the same two, with people's agents only (browsers and in-app
--                   browsers: no preview agent or crawler), for links with a preview card (#40)
--   create          POST /api/create, urlencoded, no alias (a generated id each time)
--   distinct <id>   GET /<id> with a new utm_source/utm_campaign and Referer host on every request
--                   (a flood of distinct values, as a hostile visitor would send)
--   plain           the URL given on the command line, unchanged
-- done() prints one line "BENCH_RESULT {json}" that bench.ts parses instead of wrk's text summary.

local mode = "plain"
local ring = {}
local ringSize = 0
local nextAt = 1
sent = 0 -- global: done() reads it with thread:get("sent")
local created = 0
local distinctId = ""
local nextAddress = 0
local threads = {}
-- How many of the agents below a click picks from: all of them, or people's only (the first 12).
local agentCount = 0
local PEOPLE_AGENTS = 12

-- 16 agents as real traffic mixes them: desktop and mobile browsers, in-app browsers (which send
-- long, app-specific strings), link-preview fetchers and crawlers. People's come first (PEOPLE_AGENTS).
local agents = {
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.58 Mobile Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15",
  "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0",
  "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:131.0) Gecko/20100101 Firefox/131.0",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 350.0.0.24.84 (iPhone15,2; iOS 17_5; en_US; en; scale=3.00; 1179x2556; 646483014)",
  "Mozilla/5.0 (Linux; Android 14; SM-G991B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.58 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/485.0.0.50.109;]",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Safari/537.36 OPR/114.0.0.0",
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
  "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
  "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
}
local referers = {
  false, false, -- direct clicks are the most common
  "https://www.google.com/",
  "https://t.co/",
  "https://news.ycombinator.com/item?id=41234567",
  "https://www.facebook.com/",
  "https://www.reddit.com/r/selfhosted/comments/abc123/",
  "https://mail.example.org/inbox",
}
local queries = {
  "", "", "",
  "?utm_source=newsletter&utm_medium=email&utm_campaign=launch",
  "?utm_source=twitter&utm_medium=social",
  "?utm_source=hn",
  "?utm_campaign=spring-sale&utm_medium=cpc&utm_source=google",
  "?ref=footer",
}
-- First octets of ranges allocated to RIRs across the world, so lookups land in many countries.
local octets = { 2, 5, 8, 24, 31, 41, 46, 62, 77, 81, 89, 101, 103, 110, 118, 133, 151, 175, 177, 185, 190, 196, 200, 213 }

local function publicAddress()
  return octets[math.random(#octets)] .. "." .. math.random(0, 255) .. "." .. math.random(0, 255) .. "." .. math.random(1, 254)
end

-- The n-th address of a sequence that never repeats within 24 x 256 x 256 x 254 (about 400 million):
-- n's digits spread over the first octets' ranges and the other three bytes.
local function numberedAddress(n)
  local first = octets[n % #octets + 1]
  n = math.floor(n / #octets)
  local b = n % 256
  n = math.floor(n / 256)
  local c = n % 256
  n = math.floor(n / 256)
  return first .. "." .. b .. "." .. c .. "." .. (n % 254 + 1)
end

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  mode = args[1] or "plain"
  agentCount = #agents
  if string.sub(mode, -7) == "-people" then
    mode = string.sub(mode, 1, -8)
    agentCount = PEOPLE_AGENTS
  end
  math.randomseed(42)
  if mode == "distinct" then distinctId = args[2] end
  if mode == "clicks-new" then
    nextAddress = tonumber(args[2])
    local ids = {}
    for i = 3, #args do ids[#ids + 1] = args[i] end
    -- Pre-built requests without their address; the address is appended per click (a string
    -- concatenation, cheap next to wrk.format). wrk.format ends the head with an empty line.
    ringSize = 8192
    for i = 1, ringSize do
      local headers = { ["User-Agent"] = agents[math.random(agentCount)] }
      local referer = referers[math.random(#referers)]
      if referer then headers["Referer"] = referer end
      local path = "/" .. ids[math.random(#ids)] .. queries[math.random(#queries)]
      local formatted = wrk.format("GET", path, headers)
      ring[i] = string.sub(formatted, 1, #formatted - 2) .. "X-Forwarded-For: "
    end
  end
  if mode == "clicks" then
    local ids = {}
    for i = 2, #args do ids[#ids + 1] = args[i] end
    -- 2,000 distinct addresses: clicks repeat an address the way real bursts do.
    local addresses = {}
    for i = 1, 2000 do addresses[i] = publicAddress() end
    -- Pre-built requests: building one per click in Lua would load wrk's only thread.
    ringSize = 8192
    for i = 1, ringSize do
      local headers = { ["User-Agent"] = agents[math.random(agentCount)], ["X-Forwarded-For"] = addresses[math.random(#addresses)] }
      local referer = referers[math.random(#referers)]
      if referer then headers["Referer"] = referer end
      local path = "/" .. ids[math.random(#ids)] .. queries[math.random(#queries)]
      ring[i] = wrk.format("GET", path, headers)
    end
  end
end

function request()
  sent = sent + 1
  if mode == "clicks" then
    local r = ring[nextAt]
    nextAt = nextAt % ringSize + 1
    return r
  elseif mode == "clicks-new" then
    local r = ring[nextAt]
    nextAt = nextAt % ringSize + 1
    nextAddress = nextAddress + 1
    return r .. numberedAddress(nextAddress) .. "\r\n\r\n"
  elseif mode == "distinct" then
    return wrk.format("GET", "/" .. distinctId .. "?utm_source=s" .. sent .. "&utm_campaign=c" .. sent, { ["Referer"] = "https://r" .. sent .. ".example/", ["User-Agent"] = agents[1] })
  elseif mode == "create" then
    created = created + 1
    local body = "url=" .. "https%3A%2F%2Fexample.com%2Farticles%2F" .. created .. "%3Fsrc%3Dbench"
    return wrk.format("POST", "/api/create", { ["Content-Type"] = "application/x-www-form-urlencoded" }, body)
  end
  return wrk.format(nil)
end

function done(summary, latency, requests)
  local totalSent = 0
  for _, t in ipairs(threads) do totalSent = totalSent + (t:get("sent") or 0) end
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"durationUs":%d,"sent":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latencyUs":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f}}\n',
    summary.requests, summary.duration, totalSent, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
