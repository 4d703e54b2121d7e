// Forms check their values with core's rules, the same the server runs, through yup (which Formik reads).
import * as yup from 'yup';

/** A rule of core: what is wrong with a field's value (the form's other values at hand), or nothing. */
export type CoreRule = (value: unknown, values: Readonly<Record<string, unknown>>) => string | null | undefined;

/** A field schema with a core rule as its test: the rule's message is the field's error. */
export function coreRule<S extends yup.Schema>(schema: S, rule: CoreRule): S {
  return schema.test('core-rule', (value, context) => {
    const message = rule(value, context.parent ?? {});
    return message ? context.createError({ message }) : true;
  }) as S;
}

/** A problem core finds in a whole form, at the path of the field it concerns (`prefixes[0].prefix`). */
export interface CoreProblem {
  readonly path: string;
  readonly message: string;
}

/** A form schema whose one test runs core's rules over the whole form and reports each problem at its field. */
export function coreProblems<T>(check: (values: T) => readonly CoreProblem[]) {
  return yup.object().test('core-problems', function test(values) {
    const problems = check(values as T);
    if (problems.length === 0) return true;
    return new yup.ValidationError(problems.map((p) => this.createError({ path: p.path, message: p.message })));
  });
}
