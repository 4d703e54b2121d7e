// The lake bucket (LAKE_BUCKET): named here only, so the lake is read and written through its door.
import { ENV, optionalEnv, requireEnv } from '../env';

/** The lake bucket's name; throws when the function has none. */
export const lakeBucketName = (): string => requireEnv(ENV.lakeBucket);

/** Whether this function has a lake (a custom schema's save makes its tables only where there is one). */
export const hasLake = (): boolean => !!optionalEnv(ENV.lakeBucket);
