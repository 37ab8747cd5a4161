/**
 * REST bodies nest at most MAX_BODY_DEPTH levels: JSON.parse copes with any depth, but the code that walks
 * a value afterwards (JSON.stringify, the idempotency hash, schema validation) recurses and overflows the
 * stack somewhere past a few thousand levels — a 200 KB body of `[` is enough.
 */
import type { RequestHandler } from 'express';
import { valueDepthExceeds } from '../json';
import { invalidRequest } from '../problems';

/** The deepest REST request body accepted (contract §Errors); real requests nest a dozen levels at most. */
export const MAX_BODY_DEPTH = 64;

/** After the JSON parser: a body nested deeper than MAX_BODY_DEPTH answers 400 before anything walks it. */
export const bodyDepthLimit: RequestHandler = (req, _res, next) => {
  if (valueDepthExceeds(req.body, MAX_BODY_DEPTH)) {
    return next(
      invalidRequest(`The request body nests arrays or objects more than ${MAX_BODY_DEPTH} levels deep.`, [
        { path: '$', message: `nests more than ${MAX_BODY_DEPTH} levels deep` },
      ]),
    );
  }
  next();
};
