import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import { describe, expect, it } from 'vitest';
import { describeApiError, fieldErrorsOf, isUnauthorized } from '../../web/src/lib/apollo/apiErrors';

function serverError(status: number, body: string): ServerError {
  return new ServerError(`Response not successful: Received status code ${status}`, {
    response: new Response(body, { status }),
    bodyText: body,
  });
}

const appSync401 = JSON.stringify({
  errors: [{ errorType: 'UnauthorizedException', message: 'You are not authorized to make this call.' }],
});

describe('API errors', () => {
  it('treat HTTP 401 and UnauthorizedException as a refused session, nothing else', () => {
    expect(isUnauthorized(serverError(401, appSync401))).toBe(true);
    expect(
      isUnauthorized(new CombinedGraphQLErrors({ errors: [{ message: 'no', errorType: 'UnauthorizedException' } as never] })),
    ).toBe(true);
    expect(isUnauthorized(serverError(500, ''))).toBe(false);
    expect(isUnauthorized(new CombinedGraphQLErrors({ errors: [{ message: 'bad input' }] }))).toBe(false);
    expect(isUnauthorized(new TypeError('Failed to fetch'))).toBe(false);
  });

  it.each([
    ['AppSync 401', serverError(401, appSync401), 'You are not authorized to make this call.'],
    ['401 without a body', serverError(401, ''), 'Response not successful: Received status code 401'],
    ['502', serverError(502, ''), 'Request timed out'],
    ['422', serverError(422, ''), 'Unable to forward request to the underlying services. Please try again'],
    ['500 without a result', serverError(500, 'oops'), 'Response not successful: Received status code 500'],
    ['a GraphQL error', new CombinedGraphQLErrors({ errors: [{ message: 'the resolver timed out' }] }), 'The resolver timed out'],
    ['an unreachable API', new TypeError('Failed to fetch'), 'Failed to fetch'],
    ['nothing known', undefined, 'An unexpected server error has occurred'],
  ])('describe %s', (_, error, message) => {
    expect(describeApiError(error)).toBe(message);
  });
});

describe('field errors of a refused input', () => {
  const refused = (error: Record<string, unknown>) => new CombinedGraphQLErrors({ errors: [error as never] });

  it("put each of the API's field errors on its field, the first message of a field winning", () => {
    const error = refused({
      message: 'label: Must be unique; s3Prefixes[1].prefix: Required',
      errorType: 'InvalidInput',
      errorInfo: {
        fieldErrors: [
          { path: 'label', message: 'Must be unique' },
          { path: 's3Prefixes[1].prefix', message: 'Required' },
          { path: 'label', message: 'Too long' },
        ],
      },
    });
    expect(fieldErrorsOf(error, 'label')).toEqual({ label: 'Must be unique', 's3Prefixes[1].prefix': 'Required' });
  });

  it('read the fields from errorInfo, never from the message text', () => {
    expect(fieldErrorsOf(refused({ message: 'label: Must be unique', errorType: 'InvalidInput' }), 'label')).toBeUndefined();
    expect(
      fieldErrorsOf(
        refused({ message: 'x', errorType: 'InvalidInput', errorInfo: { fieldErrors: [{ path: 7 }, null, 'label: x'] } }),
        'label',
      ),
    ).toBeUndefined();
  });

  it('give an AlreadyExists refusal to the field that must be unique, and nothing for other failures', () => {
    expect(fieldErrorsOf(refused({ message: 'A source named Web exists', errorType: 'AlreadyExists' }), 'label')).toEqual({
      label: 'A source named Web exists',
    });
    expect(fieldErrorsOf(refused({ message: 'nope', errorType: 'Unauthorized' }), 'label')).toBeUndefined();
    expect(fieldErrorsOf(new Error('offline'), 'label')).toBeUndefined();
  });
});
