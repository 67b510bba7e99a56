-- Uploads are refused once a token has too many analyses still in progress
-- (RAPPORT_PDF_MAX_PENDING); this keeps that count cheap however many analyses a token has.
CREATE INDEX analyses_pending ON analyses (token_id) WHERE status = 'processing';
