-- Statistics (issue 13): the stored /stat/find text of a daily row (row_json, 0510) starts with the row's id
-- ("id":"<device>-<day>",), so a read joins the device's name and this text without converting anything per
-- row (stat/daily.ts rowTailSql).
UPDATE stat_daily SET row_json = '"id":"' || device_id || '-' || day || '",' || row_json
  WHERE row_json IS NOT NULL AND row_json NOT LIKE '"id":%';
