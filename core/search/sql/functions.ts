// The functions a user's query may call: Athena's (Trino's) scalar, aggregate and window functions, named one by
// one. A name that is not here is refused, whatever an engine would do with it: the guard allows what it knows,
// it does not forbid what it has heard of (a file reader, an engine's own SQL runner, a setting reader).

const AGGREGATE = [
  'any_value', 'approx_distinct', 'approx_most_frequent', 'approx_percentile', 'approx_set', 'arbitrary',
  'array_agg', 'avg', 'bitwise_and_agg', 'bitwise_or_agg', 'bitwise_xor_agg', 'bool_and', 'bool_or', 'checksum',
  'corr', 'count', 'count_if', 'covar_pop', 'covar_samp', 'every', 'geometric_mean', 'histogram', 'kurtosis',
  'listagg', 'map_agg', 'map_union', 'max', 'max_by', 'min', 'min_by', 'multimap_agg', 'numeric_histogram',
  'regr_intercept', 'regr_slope', 'skewness', 'stddev', 'stddev_pop', 'stddev_samp', 'sum', 'variance',
  'var_pop', 'var_samp',
]; // prettier-ignore

const WINDOW = [
  'cume_dist', 'dense_rank', 'first_value', 'lag', 'last_value', 'lead', 'nth_value', 'ntile', 'percent_rank',
  'rank', 'row_number',
]; // prettier-ignore

const SCALAR = [
  // conditional
  'coalesce', 'if', 'nullif', 'try', 'greatest', 'least',
  // math
  'abs', 'acos', 'asin', 'atan', 'atan2', 'cbrt', 'ceil', 'ceiling', 'cos', 'cosh', 'degrees', 'e', 'exp', 'floor',
  'from_base', 'infinity', 'is_finite', 'is_infinite', 'is_nan', 'ln', 'log', 'log10', 'log2', 'mod', 'nan', 'pi',
  'pow', 'power', 'radians', 'rand', 'random', 'round', 'sign', 'sin', 'sinh', 'sqrt', 'tan', 'tanh', 'to_base',
  'truncate', 'width_bucket',
  // bitwise
  'bit_count', 'bitwise_and', 'bitwise_not', 'bitwise_or', 'bitwise_xor', 'bitwise_left_shift',
  'bitwise_right_shift', 'bitwise_right_shift_arithmetic',
  // strings
  'chr', 'codepoint', 'concat', 'concat_ws', 'format', 'format_number', 'hamming_distance', 'length',
  'levenshtein_distance', 'lower', 'lpad', 'ltrim', 'luhn_check', 'replace', 'reverse', 'rpad', 'rtrim', 'soundex',
  'split', 'split_part', 'split_to_map', 'split_to_multimap', 'starts_with', 'strpos', 'substr', 'substring',
  'translate', 'trim', 'upper', 'from_utf8', 'to_utf8',
  // regular expressions
  'regexp_count', 'regexp_extract', 'regexp_extract_all', 'regexp_like', 'regexp_position', 'regexp_replace',
  'regexp_split',
  // binary and hashes
  'from_base64', 'to_base64', 'from_base64url', 'to_base64url', 'from_hex', 'to_hex', 'md5', 'sha1', 'sha256',
  'sha512', 'xxhash64', 'murmur3', 'crc32', 'hmac_md5', 'hmac_sha1', 'hmac_sha256', 'hmac_sha512',
  'from_big_endian_32', 'to_big_endian_32', 'from_big_endian_64', 'to_big_endian_64',
  // JSON
  'is_json_scalar', 'json_array_contains', 'json_array_get', 'json_array_length', 'json_extract',
  'json_extract_scalar', 'json_format', 'json_parse', 'json_size',
  // dates and times
  'at_timezone', 'current_timezone', 'date', 'date_add', 'date_diff', 'date_format', 'date_parse', 'date_trunc',
  'day', 'day_of_month', 'day_of_week', 'day_of_year', 'dow', 'doy', 'format_datetime', 'from_iso8601_date',
  'from_iso8601_timestamp', 'from_iso8601_timestamp_nanos', 'from_unixtime', 'from_unixtime_nanos', 'hour',
  'human_readable_seconds', 'last_day_of_month', 'millisecond', 'minute', 'month', 'now', 'parse_datetime',
  'parse_duration', 'quarter', 'second', 'timezone_hour', 'timezone_minute', 'to_iso8601', 'to_milliseconds',
  'to_unixtime', 'week', 'week_of_year', 'with_timezone', 'year', 'year_of_week', 'yow',
  // arrays
  'all_match', 'any_match', 'array_distinct', 'array_except', 'array_intersect', 'array_join', 'array_max',
  'array_min', 'array_position', 'array_remove', 'array_sort', 'array_union', 'arrays_overlap', 'cardinality',
  'combinations', 'contains', 'contains_sequence', 'element_at', 'filter', 'flatten', 'ngrams', 'none_match',
  'reduce', 'repeat', 'sequence', 'shuffle', 'slice', 'transform', 'trim_array', 'zip', 'zip_with',
  // maps
  'map', 'map_concat', 'map_entries', 'map_filter', 'map_from_entries', 'map_keys', 'map_values', 'map_zip_with',
  'multimap_from_entries', 'transform_keys', 'transform_values',
  // IP addresses and URLs
  'ip_prefix', 'ip_subnet_max', 'ip_subnet_min', 'ip_subnet_range', 'is_subnet_of', 'url_decode', 'url_encode',
  'url_extract_fragment', 'url_extract_host', 'url_extract_parameter', 'url_extract_path', 'url_extract_port',
  'url_extract_protocol', 'url_extract_query',
  // other
  'typeof', 'uuid',
]; // prettier-ignore

/** Every function a search may call, by its lower-case name. */
export const SEARCH_FUNCTIONS: ReadonlySet<string> = new Set([...AGGREGATE, ...WINDOW, ...SCALAR]);
