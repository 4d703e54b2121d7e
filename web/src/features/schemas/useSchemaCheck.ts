import { useDebouncedValue } from '@mantine/hooks';
import { useMemo } from 'react';
import { checkCustomSchema, type SchemaCheck } from '../../../../core/schemas/custom-schema';
import type { EditorMarker } from '../../lib/editor/YamlEditor';
import { locate } from '../../lib/editor/yamlLocate';

export interface SchemaFormValues {
  readonly name: string;
  readonly description: string;
  readonly referenceURL: string;
  readonly spec: string;
  readonly isFieldDiscoveryEnabled: boolean;
}

export interface LiveCheck {
  readonly check: SchemaCheck;
  readonly markers: EditorMarker[];
  readonly errorCount: number;
}

const DELAY_MS = 200;

/** Core's checks of the form, re-run shortly after each change, with editor markers placed by path. */
export function useSchemaCheck(values: SchemaFormValues, existingNames: readonly string[] | undefined): LiveCheck {
  const [settled] = useDebouncedValue(values, DELAY_MS);
  return useMemo(() => {
    const check = checkCustomSchema(settled, { existingNames });
    const markers: EditorMarker[] = [];
    if (check.yamlError) {
      const line = check.yamlError.line ?? 1;
      const column = check.yamlError.column ?? 1;
      markers.push({
        startLine: line,
        startColumn: column,
        endLine: line,
        endColumn: column + 1,
        message: check.yamlError.message,
        severity: 'error',
      });
    }
    for (const problem of check.problems) {
      markers.push({
        ...locate(settled.spec, problem.path),
        message: problem.path ? `${problem.path}: ${problem.message}` : problem.message,
        severity: problem.level,
      });
    }
    const errorCount = markers.filter((m) => m.severity === 'error').length;
    return { check, markers, errorCount };
  }, [settled, existingNames]);
}
