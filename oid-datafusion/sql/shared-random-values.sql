-- shared-random-value: one random value used by more than one generator.
-- Reads `ids` (`_id` an ObjectId, `source` text); one row per shared random value, over all its
-- ids. A value is shared when one second holds two runs of its counters more than 2^20 apart
-- (generators interleaved: `interleaved_seconds`), or when one counter is found in two seconds
-- (a generator started over on counters already used, as a forked child or a process seeded
-- alike does: `reused_counters`).
WITH distinct_ids AS (
    SELECT DISTINCT objectid_random(_id) AS r,
           objectid_timestamp(_id) AS t,
           CAST(objectid_counter(_id) AS BIGINT) AS c
    FROM ids
),
counters AS (
    -- Each counter's distance from the one below it in its second; the lowest one's from the
    -- highest, around the end of the counter (0xffffff wraps to 0). And in how many seconds
    -- the counter is found, marked on its first.
    SELECT r, t,
           COALESCE(c - lag(c) OVER (PARTITION BY r, t ORDER BY c),
                    c + 16777216 - max(c) OVER (PARTITION BY r, t)) AS gap,
           count(*) OVER (PARTITION BY r, c) AS seconds,
           min(t) OVER (PARTITION BY r, c) AS first_t
    FROM distinct_ids
),
seconds AS (
    SELECT r, t,
           sum(CASE WHEN gap > 1048576 THEN 1 ELSE 0 END) AS runs,
           sum(CASE WHEN seconds > 1 AND t = first_t THEN 1 ELSE 0 END) AS reused
    FROM counters
    GROUP BY r, t
),
-- One pass, without a UNION ALL of the two kinds of evidence: see the README's known limits.
shared AS (
    SELECT r, sum(CASE WHEN runs >= 2 THEN 1 ELSE 0 END) AS interleaved_seconds,
           sum(reused) AS reused_counters
    FROM seconds
    GROUP BY r
    HAVING sum(CASE WHEN runs >= 2 THEN 1 ELSE 0 END) > 0 OR sum(reused) > 0
)
SELECT encode(s.r, 'hex') AS random_value,
       min(objectid_timestamp(i._id)) AS first_second,
       max(objectid_timestamp(i._id)) AS last_second,
       count(*) AS ids,
       array_sort(array_agg(DISTINCT i.source)) AS sources,
       max(s.interleaved_seconds) AS interleaved_seconds,
       max(s.reused_counters) AS reused_counters
FROM ids i JOIN shared s ON objectid_random(i._id) = s.r
GROUP BY s.r
ORDER BY random_value
