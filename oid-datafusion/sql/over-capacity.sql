-- over-capacity: more than 2^24 ids in one second of one random value (some necessarily repeat).
-- Reads `ids` (`_id` an ObjectId, `source` text); one row per (random value, second).
SELECT encode(objectid_random(_id), 'hex') AS random_value,
       objectid_timestamp(_id) AS first_second,
       objectid_timestamp(_id) AS last_second,
       count(*) AS ids,
       array_sort(array_agg(DISTINCT source)) AS sources,
       count(*) - 16777216 AS over_capacity
FROM ids
GROUP BY objectid_random(_id), objectid_timestamp(_id)
HAVING count(*) > 16777216
ORDER BY random_value, first_second
