// Operator and keyword documentation for completion and hover (the reference pages in docs/pantherflow say more).

export interface OperatorInfo {
  readonly name: string;
  readonly syntax: string;
  readonly doc: string;
  readonly example: string;
}

export const OPERATORS: readonly OperatorInfo[] = [
  {
    name: 'where',
    syntax: 'where <condition>',
    doc: 'Keeps the rows for which the condition is true.',
    example: "| where eventName == 'ConsoleLogin'",
  },
  {
    name: 'project',
    syntax: 'project <column> | <name>=<expression>, ...',
    doc: 'Chooses, renames and computes the columns of the result; all others are dropped.',
    example: '| project eventName, user=userIdentity.arn',
  },
  {
    name: 'extend',
    syntax: 'extend <name>=<expression>, ...',
    doc: 'Adds computed columns (or replaces columns of the same name), keeping all others.',
    example: "| extend hour=time.trunc('hour', p_event_time)",
  },
  {
    name: 'summarize',
    syntax: 'summarize [<name>=]<aggregation>, ... [by [<name>=]<expression>, ...]',
    doc: 'Groups rows by the `by` expressions and computes aggregations (agg.*) per group.',
    example: '| summarize logins=agg.count() by userIdentity.userName',
  },
  {
    name: 'sort',
    syntax: 'sort <expression> [asc|desc], ...',
    doc: 'Orders rows; each key is descending unless marked asc. Nulls come last when descending, first when ascending.',
    example: '| sort p_event_time desc',
  },
  { name: 'limit', syntax: 'limit <count>', doc: 'Keeps at most this many rows.', example: '| limit 100' },
  {
    name: 'search',
    syntax: "search '<text>'",
    doc: 'Keeps rows where any column (nested values included) contains the text, ignoring case.',
    example: "| search 'admin'",
  },
  {
    name: 'join',
    syntax: 'join [kind=inner|leftouter|rightouter|fullouter|cross] <name>=(<subquery>) on $left.<a> == $right.<b>',
    doc: "Joins each row with the rows of the subquery that match; the right side's columns are nested under <name>.",
    example:
      '| join kind=leftouter okta=(panther_logs.public.okta_systemlog) on $left.sourceIPAddress == $right.client.ipAddress',
  },
  {
    name: 'visualize',
    syntax: 'visualize bar|line|pie|table [xcolumn=<column>] [series=<column>]',
    doc: 'Describes a chart of the result; must be the last operator.',
    example: '| visualize bar xcolumn=eventName series=n',
  },
];

export const SOURCE_KEYWORDS: readonly OperatorInfo[] = [
  {
    name: 'union',
    syntax: 'union <table>, <table>, ...',
    doc: 'All rows of several tables; a column missing from a table is null there.',
    example: 'union panther_logs.public.aws_cloudtrail, panther_logs.public.okta_systemlog',
  },
  {
    name: 'datatable',
    syntax: 'datatable [{...}, ...]',
    doc: 'Rows written inline as JSON objects.',
    example: 'datatable [{"user": "alice", "n": 1}]',
  },
  {
    name: 'range',
    syntax: 'range <column> from <start> to <end> step <step>',
    doc: 'One row per value from start to end (inclusive); numbers, or timestamps with a timespan step.',
    example: 'range x from 1 to 10 step 1',
  },
  {
    name: 'let',
    syntax: 'let <name> = <query or value>;',
    doc: 'Names a query or a value for the statements that follow.',
    example: "let admins = panther_logs.public.aws_cloudtrail | where userIdentity.type == 'Root';",
  },
];

export const EXPRESSION_KEYWORDS = ['and', 'or', 'not', 'in', 'between', 'true', 'false', 'null', 'fn'] as const;

export const KEYWORDS = new Set<string>([
  ...OPERATORS.map((o) => o.name),
  ...SOURCE_KEYWORDS.map((o) => o.name),
  ...EXPRESSION_KEYWORDS,
  'by',
  'asc',
  'desc',
  'on',
  'kind',
  'from',
  'to',
  'step',
]);

export function operatorInfo(name: string): OperatorInfo | undefined {
  return OPERATORS.find((o) => o.name === name) ?? SOURCE_KEYWORDS.find((o) => o.name === name);
}
