// The Redis adapter's data layout and its Lua scripts: each operation of the port that reads before it writes is
// one script, so it is atomic on the server (Redis runs a script to completion before any other command).
//
// Layout, every name under the store's namespace `ns` (default `brook:`):
//   ns .. 'v:' .. key     hash {v = value, ver = version}; PEXPIRE on it for a key with a TTL
//   ns .. 'c:' .. key     string: a counter (INCR), never expiring
//   ns .. 'index'         sorted set (all scores 0) of every value key's name: list() is ZRANGEBYLEX over it,
//                         which orders by bytes, i.e. by UTF-8 code points (compareCoordinationKeys)
//   ns .. 'ttl-index'     sorted set of the names of value keys that carry a TTL: the sweep script looks only at
//                         these to notice expiry, so watchers hear 'expire' without keyspace notifications (which
//                         managed Redis services often forbid)
//   ns .. 'events'        pub/sub channel: messages '<type> <key>' with type put, delete or expire
//
// Every script takes the namespace as ARGV[1] and builds its keys from it; scripts therefore assume one Redis
// server (plain or Sentinel-managed), not Redis Cluster.
// A fenced write (the controller's) names a counter and the value it must still have: the controller epoch. When
// the counter has moved on, the script writes nothing and answers {-1, counter}.

const FENCE = `
local function fenced(ns, counter, expected)
  if counter == '' then return nil end
  local current = tonumber(redis.call('GET', ns .. 'c:' .. counter) or '0')
  if current ~= tonumber(expected) then return current end
  return nil
end
`;

/** ARGV: ns, key, value, ttlMs ('' = persistent), expectedVersion ('' = any), fenceCounter ('' = none), epoch. */
export const PUT_SCRIPT = `${FENCE}
local ns, key = ARGV[1], ARGV[2]
local epoch = fenced(ns, ARGV[6], ARGV[7])
if epoch then return {-1, epoch} end
local hkey = ns .. 'v:' .. key
local current = tonumber(redis.call('HGET', hkey, 'ver') or '0')
if ARGV[5] ~= '' and tonumber(ARGV[5]) ~= current then return {0, current} end
local version = current + 1
redis.call('HSET', hkey, 'v', ARGV[3], 'ver', version)
if ARGV[4] == '' then
  redis.call('PERSIST', hkey)
  redis.call('ZREM', ns .. 'ttl-index', key)
else
  redis.call('PEXPIRE', hkey, ARGV[4])
  redis.call('ZADD', ns .. 'ttl-index', 0, key)
end
redis.call('ZADD', ns .. 'index', 0, key)
redis.call('PUBLISH', ns .. 'events', 'put ' .. key)
return {1, version}
`;

/** ARGV: ns, key, expectedVersion ('' = any), fenceCounter ('' = none), epoch. Returns {1} deleted, {0} not. */
export const DELETE_SCRIPT = `${FENCE}
local ns, key = ARGV[1], ARGV[2]
local epoch = fenced(ns, ARGV[4], ARGV[5])
if epoch then return {-1, epoch} end
local hkey = ns .. 'v:' .. key
local current = redis.call('HGET', hkey, 'ver')
if not current then return {0} end
if ARGV[3] ~= '' and tonumber(ARGV[3]) ~= tonumber(current) then return {0} end
redis.call('DEL', hkey)
redis.call('ZREM', ns .. 'index', key)
redis.call('ZREM', ns .. 'ttl-index', key)
redis.call('PUBLISH', ns .. 'events', 'delete ' .. key)
return {1}
`;

/** ARGV: ns, key, token, ttlMs. SET NX PX with a version. */
export const ACQUIRE_SCRIPT = `
local ns, key = ARGV[1], ARGV[2]
local hkey = ns .. 'v:' .. key
if redis.call('EXISTS', hkey) == 1 then return 0 end
redis.call('HSET', hkey, 'v', ARGV[3], 'ver', 1)
redis.call('PEXPIRE', hkey, ARGV[4])
redis.call('ZADD', ns .. 'index', 0, key)
redis.call('ZADD', ns .. 'ttl-index', 0, key)
redis.call('PUBLISH', ns .. 'events', 'put ' .. key)
return 1
`;

/** ARGV: ns, key, token, ttlMs. Resets the TTL only if the key holds token. */
export const RENEW_SCRIPT = `
local ns, key = ARGV[1], ARGV[2]
local hkey = ns .. 'v:' .. key
if redis.call('HGET', hkey, 'v') ~= ARGV[3] then return 0 end
redis.call('PEXPIRE', hkey, ARGV[4])
redis.call('ZADD', ns .. 'ttl-index', 0, key)
return 1
`;

/** ARGV: ns, key, token. Deletes only if the key holds token. */
export const RELEASE_SCRIPT = `
local ns, key = ARGV[1], ARGV[2]
local hkey = ns .. 'v:' .. key
if redis.call('HGET', hkey, 'v') ~= ARGV[3] then return 0 end
redis.call('DEL', hkey)
redis.call('ZREM', ns .. 'index', key)
redis.call('ZREM', ns .. 'ttl-index', key)
redis.call('PUBLISH', ns .. 'events', 'delete ' .. key)
return 1
`;

/** ARGV: ns, counterKey, floor. Sets the counter to max(counter, floor) + 1 and returns it. */
export const RAISE_SCRIPT = `
local ckey = ARGV[1] .. 'c:' .. ARGV[2]
local current = tonumber(redis.call('GET', ckey) or '0')
local floor = tonumber(ARGV[3])
local value = math.max(current, floor) + 1
redis.call('SET', ckey, string.format('%.0f', value))
return string.format('%.0f', value)
`;

/**
 * ARGV: ns, prefix. Returns {key1, value1, version1, ...} for live keys under prefix in byte order; names whose
 * hash has expired are dropped from the indexes (and watchers told 'expire' once).
 */
export const LIST_SCRIPT = `
local ns, prefix = ARGV[1], ARGV[2]
local low, high = '-', '+'
if prefix ~= '' then low, high = '[' .. prefix, '(' .. prefix .. '\\255' end
local names = redis.call('ZRANGEBYLEX', ns .. 'index', low, high)
local out = {}
for _, key in ipairs(names) do
  local entry = redis.call('HMGET', ns .. 'v:' .. key, 'v', 'ver')
  if entry[2] then
    out[#out + 1] = key
    out[#out + 1] = entry[1]
    out[#out + 1] = entry[2]
  else
    redis.call('ZREM', ns .. 'index', key)
    if redis.call('ZREM', ns .. 'ttl-index', key) == 1 then
      redis.call('PUBLISH', ns .. 'events', 'expire ' .. key)
    end
  end
end
return out
`;

/** ARGV: ns. Drops expired TTL keys from the indexes and tells watchers 'expire' (once, whoever sweeps). */
export const SWEEP_SCRIPT = `
local ns = ARGV[1]
local names = redis.call('ZRANGE', ns .. 'ttl-index', 0, -1)
local expired = 0
for _, key in ipairs(names) do
  if redis.call('EXISTS', ns .. 'v:' .. key) == 0 then
    redis.call('ZREM', ns .. 'ttl-index', key)
    redis.call('ZREM', ns .. 'index', key)
    redis.call('PUBLISH', ns .. 'events', 'expire ' .. key)
    expired = expired + 1
  end
end
return expired
`;
