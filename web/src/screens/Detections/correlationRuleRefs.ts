// The rules a correlation rule's steps may reference, as the chart asks about them: loading, missing or found.
import type { ChartRule } from '../../features/correlation/CorrelationChart';

export interface RuleRef {
  id: string;
  analysisType: string;
  enabled: boolean;
}

export function correlationRuleRefs(loading: boolean, refs: readonly RuleRef[]) {
  const known = new Map(refs.map((r) => [r.id, r]));
  return {
    known,
    lookup: (ruleId: string): ChartRule => (loading ? 'loading' : (known.get(ruleId) ?? null)),
  };
}
