-- Runs OSRM's own Lua profile functions outside OSRM, for the TypeScript ports' oracle test
-- (profiles.test.ts). It provides the few globals and C++ helpers the profiles call and reads
-- cases from stdin: "W" (way) or "N" (node), then key\31value pairs separated by \30.
-- Usage: lua5.4 osrm-harness.lua <profiles dir> <profile name>
local dir, name = arg[1], arg[2]
package.path = dir .. '/?.lua;' .. package.path

mode = { inaccessible = 0, driving = 1, cycling = 2, walking = 3, ferry = 4, train = 5, pushing_bike = 6,
  steps_up = 8, steps_down = 9, river_up = 10, river_down = 11, route = 12 }
local mode_name = {}
for k, v in pairs(mode) do mode_name[v] = k end
road_priority_class = { motorway = 0, motorway_link = 1, trunk = 2, trunk_link = 3, primary = 4, primary_link = 5,
  secondary = 6, secondary_link = 7, tertiary = 8, tertiary_link = 9, main_residential = 10, side_residential = 11,
  alley = 12, parking = 13, link_road = 14, unclassified = 15, bike_path = 16, foot_path = 18, connectivity = 31 }
obstacle_type = { none = 0, barrier = 1, traffic_signals = 2, stop = 3, give_way = 4, crossing = 5, traffic_calming = 6,
  mini_roundabout = 7, turning_loop = 8, turning_circle = 9, stop_minor = 10, gate = 11 }
local obstacle_name = {}
for k, v in pairs(obstacle_type) do obstacle_name[v] = k end
obstacle_direction = { none = 0, forward = 1, backward = 2, both = 3 }
local direction_name = {}
for k, v in pairs(obstacle_direction) do direction_name[v] = k end
Obstacle = { new = function(type, direction, duration, weight)
  return { type = type, direction = direction or 0, duration = duration or 0, weight = weight or 0 } end }
local added = {}
obstacle_map = { add = function(_, node, obs) table.insert(added, obs) end, get = function() return {} end }
traffic_lights = { none = 0, direction_all = 1, direction_forward = 2, direction_reverse = 3 }
constants = { max_turn_weight = 32767, precision = 1e6 }

-- include/extractor/extraction_helper_functions.hpp, the same grammar
local function osm_time(s)
  local a = s:match('^(%d%d?)$'); if a then return tonumber(a) * 60 end
  local h, m = s:match('^(%d%d?):(%d%d?)$'); if h then return h * 3600 + m * 60 end
  local h2, m2, s2 = s:match('^(%d%d?):(%d%d?):(%d%d?)$'); if h2 then return h2 * 3600 + m2 * 60 + s2 end
end
local function iso(s)
  local w = s:match('^P(%d+)[Ww]$'); if w then return w * 604800 end
  local h, m, sec = s:match('^PT(%d%d)(%d%d)(%d%d)$')
  if h and tonumber(h) < 24 and tonumber(m) < 60 and tonumber(sec) < 60 then return h * 3600 + m * 60 + sec end
  h, m, sec = s:match('^PT(%d%d):(%d%d):(%d%d)$')
  if h and tonumber(h) < 24 and tonumber(m) < 60 and tonumber(sec) < 60 then return h * 3600 + m * 60 + sec end
  local rest = s:match('^P(.*)$'); if not rest then return nil end
  local total = 0
  local d, r2 = rest:match('^(%d+)[Dd](.*)$'); if d then total = total + d * 86400; rest = r2 end
  if rest == '' then return total end
  local t = rest:match('^T(.*)$'); if not t then return nil end
  local hh, r3 = t:match('^(%d+)[Hh](.*)$'); if hh then total = total + hh * 3600; t = r3 end
  local mm, r4 = t:match('^(%d+)[Mm](.*)$'); if mm then total = total + mm * 60; t = r4 end
  local ss, r5 = t:match('^(%d+)[Ss](.*)$'); if ss then total = total + ss; t = r5 end
  if t ~= '' then return nil end
  return total
end
function durationIsValid(s) return s ~= '' and (osm_time(s) or iso(s)) ~= nil end
function parseDuration(s) return osm_time(s) or iso(s) or 4294967295 end
function canonicalizeStringList(s, delim)
  s = s:gsub(delim:gsub('%p', '%%%0'), delim .. ' ')
  return (s:gsub('(%s)%s+', '%1'))
end
function trimLaneString(s) return s end
function applyAccessTokens(s) return s end

local profile_module = dofile(dir .. '/' .. name .. '.lua')
local profile = profile_module.setup()

local function element(tags)
  return {
    get_value_by_key = function(_, k) return tags[k] end,
    get_location_tag = function() return nil end,
    id = function() return 1 end,
  }
end
local function new_result()
  return { forward_mode = mode.inaccessible, backward_mode = mode.inaccessible, forward_speed = -1, backward_speed = -1,
    forward_rate = -1, backward_rate = -1, duration = -1, weight = -1, is_startpoint = true,
    forward_restricted = false, backward_restricted = false,
    road_classification = { motorway_class = false, link_class = false, may_be_ignored = false, road_priority_class = 31, num_lanes = 0 },
    forward_classes = {}, backward_classes = {} }
end
local function num(x) return string.format('%.6g', x) end
local relations = { get_relations = function() return {} end }

for line in io.lines() do
  local kind, rest = line:sub(1, 1), line:sub(2)
  local tags = {}
  for pair in (rest .. '\30'):gmatch('([^\30]*)\30') do
    local k, v = pair:match('^([^\31]*)\31(.*)$')
    if k then tags[k] = v end
  end
  if kind == 'W' then
    local r = new_result()
    profile_module.process_way(profile, element(tags), r, relations)
    local fopen = r.forward_mode ~= mode.inaccessible and (r.forward_speed > 0 or r.duration > 0)
    local bopen = r.backward_mode ~= mode.inaccessible and (r.backward_speed > 0 or r.duration > 0)
    if not fopen and not bopen then print('null')
    else
      local f = fopen and (mode_name[r.forward_mode] .. ' ' .. num(r.forward_speed) .. ' ' .. num(r.forward_rate)) or 'x'
      local b = bopen and (mode_name[r.backward_mode] .. ' ' .. num(r.backward_speed) .. ' ' .. num(r.backward_rate)) or 'x'
      print(table.concat({ f, b, num(r.duration), num(r.weight), tostring(r.forward_restricted and fopen),
        tostring(r.backward_restricted and bopen), tostring(r.is_startpoint), tostring(r.roundabout or false),
        tostring(r.road_classification.road_priority_class) }, '|'))
    end
  else
    added = {}
    local nr = {}
    profile_module.process_node(profile, element(tags), nr, relations)
    -- API version 2 profiles (foot.lua, bicycle.lua) mark the node instead of adding obstacles
    if nr.barrier then table.insert(added, Obstacle.new(obstacle_type.barrier)) end
    if nr.traffic_lights then
      local dir = nr.traffic_lights == traffic_lights.direction_forward and obstacle_direction.forward
        or nr.traffic_lights == traffic_lights.direction_reverse and obstacle_direction.backward or obstacle_direction.none
      table.insert(added, Obstacle.new(obstacle_type.traffic_signals, dir, profile.properties.traffic_signal_penalty or 2, 0))
    end
    local out = {}
    for _, o in ipairs(added) do
      table.insert(out, obstacle_name[o.type] .. ' ' .. direction_name[o.direction] .. ' ' .. num(o.duration))
    end
    print(#out == 0 and '-' or table.concat(out, ','))
  end
  io.stdout:flush()
end
