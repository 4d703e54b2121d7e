// Reading and checking mutation inputs: normalised values, the core rules, and the API's errors.
import type { Problem, StreamTypeInput } from '../../../../core/log-sources/validation';
import type { StreamType } from '../../../../core/log-sources/types';
import { ApiError } from '../../../lib/errors';

export type Input = Record<string, unknown>;

export function inputOf(value: unknown): Input {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ApiError('InvalidInput', 'input is required');
  return value as Input;
}

/** Refuses the input with every problem, each as `path: message`. */
export function refuse(problems: readonly Problem[]): void {
  if (problems.length > 0) throw new ApiError('InvalidInput', problems.map((p) => `${p.path}: ${p.message}`).join('; '));
}

export const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : (value as string));
export const optionalText = (value: unknown): string | undefined => {
  if (value === undefined || value === null) return undefined;
  const trimmed = text(value);
  return trimmed === '' ? undefined : trimmed;
};
export const textList = (value: unknown): string[] =>
  Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v.trim() : v)) : (value as string[]);

/** The stream type of an input, falling back to the current one (or Auto); the envelope only for JsonArray. */
export function streamTypeOf(input: Input, current?: StreamTypeInput): StreamTypeInput {
  const streamType = (input.streamType ?? current?.streamType ?? 'Auto') as StreamType;
  const given =
    input.streamType === undefined || input.streamType === null ? current?.jsonArrayEnvelopeField : input.jsonArrayEnvelopeField;
  const field = optionalText(given);
  return { streamType, jsonArrayEnvelopeField: streamType === 'JsonArray' ? field : undefined };
}
