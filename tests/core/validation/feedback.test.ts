import { describe, expect, it } from 'vitest';
import {
  FEATURE_REQUIRED,
  FEEDBACK_TEXT_MAX_LENGTH,
  FEEDBACK_TEXT_REQUIRED,
  feedbackErrors,
  LOCATION_URL_INVALID,
  normalizeFeedback,
  SCREEN_WIDTH_INVALID,
  USEFULNESS_RANGE,
  type FeedbackInput,
} from '../../../core/validation/feedback';
import { CONTROL_CHARACTERS } from '../../../core/validation/generic';

const valid: FeedbackInput = {
  feature: { name: 'Log Sources' },
  feedback: { text: 'The S3 source wizard is clear.' },
  usefulness: 4,
  locationUrl: 'https://caracal.example.com/configure/log-sources/?page=2',
  screenWidth: 1920,
};

const withText = (text: unknown) => ({ ...valid, feedback: { text } });

describe('feedback rules', () => {
  it('accept valid feedback, with or without a usefulness', () => {
    expect(feedbackErrors(valid)).toEqual({});
    expect(feedbackErrors({ ...valid, usefulness: null })).toEqual({});
    expect(feedbackErrors({ ...valid, usefulness: undefined })).toEqual({});
    expect(feedbackErrors({ ...valid, locationUrl: 'http://127.0.0.1:5173/support/' })).toEqual({});
  });

  it.each([
    ['empty', ''],
    ['blank', '   \n '],
    ['missing', undefined],
    ['a number', 42],
    ['null', null],
  ])('require the text (%s)', (_name, text) => {
    expect(feedbackErrors(withText(text))).toEqual({ text: FEEDBACK_TEXT_REQUIRED });
    expect(FEEDBACK_TEXT_REQUIRED).toBe('This field is required');
  });

  it('bound the text length and refuse control characters, keeping line breaks and markup as text', () => {
    expect(feedbackErrors(withText('x'.repeat(FEEDBACK_TEXT_MAX_LENGTH)))).toEqual({});
    expect(feedbackErrors(withText('x'.repeat(FEEDBACK_TEXT_MAX_LENGTH + 1)))).toEqual({
      text: 'Must be at most 5000 characters',
    });
    expect(feedbackErrors(withText('line one\nline two\ttabbed'))).toEqual({});
    expect(feedbackErrors(withText('bad \u0000 byte'))).toEqual({ text: CONTROL_CHARACTERS });
    expect(feedbackErrors(withText(`<script>alert(1)</script> '; DROP TABLE feedback; --`))).toEqual({});
  });

  it.each([0, 6, 2.5, -1, '3', Number.NaN, true])('refuse usefulness %s', (usefulness) => {
    expect(feedbackErrors({ ...valid, usefulness })).toEqual({ usefulness: USEFULNESS_RANGE });
  });

  it.each([1, 2, 3, 4, 5])('accept usefulness %s', (usefulness) => {
    expect(feedbackErrors({ ...valid, usefulness })).toEqual({});
  });

  it('require a feature name of one line', () => {
    expect(feedbackErrors({ ...valid, feature: { name: ' ' } })).toEqual({ feature: FEATURE_REQUIRED });
    expect(feedbackErrors({ ...valid, feature: undefined })).toEqual({ feature: FEATURE_REQUIRED });
    expect(feedbackErrors({ ...valid, feature: { name: 'a\nb' } })).toEqual({ feature: CONTROL_CHARACTERS });
    expect(feedbackErrors({ ...valid, feature: { name: 'x'.repeat(101) } })).toEqual({
      feature: 'Must be at most 100 characters',
    });
  });

  it.each([
    ['not a URL', 'not a url'],
    ['a script URL', 'javascript:alert(1)'],
    ['a data URL', 'data:text/html,hi'],
    ['a number', 3],
    ['a huge URL', `https://example.com/${'a'.repeat(2100)}`],
  ])('refuse a location that is %s', (_name, locationUrl) => {
    expect(feedbackErrors({ ...valid, locationUrl })).toEqual({ locationUrl: LOCATION_URL_INVALID });
  });

  it.each([-1, 1.5, '1920', 100_001, null])('refuse screen width %s', (screenWidth) => {
    expect(feedbackErrors({ ...valid, screenWidth })).toEqual({ screenWidth: SCREEN_WIDTH_INVALID });
  });

  it('report every broken rule of malformed input', () => {
    expect(Object.keys(feedbackErrors(null)).sort()).toEqual(['feature', 'locationUrl', 'screenWidth', 'text']);
    expect(Object.keys(feedbackErrors('feedback')).sort()).toEqual(['feature', 'locationUrl', 'screenWidth', 'text']);
    expect(Object.keys(feedbackErrors([])).sort()).toEqual(['feature', 'locationUrl', 'screenWidth', 'text']);
  });

  it('trim the texts and store a missing usefulness as null', () => {
    expect(
      normalizeFeedback({ ...valid, feature: { name: ' Alerts ' }, feedback: { text: '  Great  ' }, usefulness: null }),
    ).toEqual({ ...valid, feature: { name: 'Alerts' }, feedback: { text: 'Great' }, usefulness: null });
  });
});
