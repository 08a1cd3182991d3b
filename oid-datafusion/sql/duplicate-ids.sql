-- duplicate-id: one id more than once, in one source or across sources.
-- Reads `ids` (`_id` an ObjectId, `source` text); one row per random value with repeated ids.
-- `ids` counts the extra copies (an id found three times counts 2).
WITH repeated AS (
    SELECT _id FROM ids GROUP BY _id HAVING count(*) > 1
)
SELECT encode(objectid_random(i._id), 'hex') AS random_value,
       min(objectid_timestamp(i._id)) AS first_second,
       max(objectid_timestamp(i._id)) AS last_second,
       count(*) - count(DISTINCT i._id) AS ids,
       array_sort(array_agg(DISTINCT i.source)) AS sources,
       min(objectid_hex(i._id)) AS example
FROM ids i JOIN repeated d ON i._id = d._id
GROUP BY objectid_random(i._id)
ORDER BY random_value
