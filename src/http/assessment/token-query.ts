import { Type } from 'typebox';

/** Group B carries its token in the query string; every route documents it. */
export const TokenQuery = Type.Object({
  token: Type.String({ description: 'API token from the dashboard (group B)' }),
});
