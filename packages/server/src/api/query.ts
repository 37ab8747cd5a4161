/** Query values the handlers normalise after validation (the validator has already typed them). */

/** An RFC 3339 instant with any offset → the stored form (UTC ISO), so text comparison is time comparison. */
export const storedInstant = (value: string | undefined): string | undefined => (value === undefined ? undefined : new Date(value).toISOString());
