-- Two trigram indexes of 003 that no statement ever used: the name search reads name_key's
-- (006) and the first and last name keys, and compares companies in the service. Each imported
-- or updated person still paid for them: a trigram of every name and company written into two
-- GIN indexes, most of an import's index upkeep.
DROP INDEX IF EXISTS people_name_trgm;
DROP INDEX IF EXISTS people_company_trgm;
