import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USEFULNESS_RANGE } from '../../core/validation/feedback';
import type { AppSyncResolverEvent } from '../../functions/lib/appsync';
import type { Caller } from '../../functions/lib/auth';
import { dynamo } from '../../functions/lib/clients';
import { ApiError } from '../../functions/lib/errors';
import { feedbackResolvers, sendUserFeedback } from '../../functions/api/resolvers/feedback';
import { feedbackKey } from '../../functions/lib/feedback/repository';
import { startEntityTable } from './alerts/entity-table';

const TABLE = 'feedback-entities';
let stop: () => Promise<void>;
beforeAll(async () => {
  stop = (await startEntityTable(TABLE)).stop;
});
afterAll(() => stop());

const caller: Caller = {
  id: 'user-1',
  username: 'user-1',
  email: 'ada@example.com',
  enabled: true,
  role: { id: 'Admin', name: 'Admin' },
  permissions: [],
};

function event(input: unknown): AppSyncResolverEvent<{ input: unknown }> {
  return {
    arguments: { input },
    identity: null,
    source: null,
    request: { headers: {}, domainName: null },
    prev: null,
    info: {
      fieldName: 'sendUserFeedback',
      parentTypeName: 'Mutation',
      variables: {},
      selectionSetList: ['id'],
      selectionSetGraphQL: '{ id }',
    },
    stash: {},
  };
}

const input = {
  feature: { name: ' Schemas ' },
  feedback: { text: '  Inferring a schema from samples saved me an hour.  ' },
  usefulness: 5,
  locationUrl: 'http://127.0.0.1:4000/configure/schemas/',
  screenWidth: 1440,
};

async function stored(id: string) {
  return (await dynamo().send(new GetCommand({ TableName: TABLE, Key: feedbackKey(id), ConsistentRead: true }))).Item;
}

describe('sendUserFeedback', () => {
  it('is the resolver of Mutation.sendUserFeedback', () => {
    expect(feedbackResolvers['Mutation.sendUserFeedback']).toBe(sendUserFeedback);
  });

  it('stores the feedback with its page, screen width and sender under FEEDBACK#<id>', async () => {
    const { id } = await sendUserFeedback(event(input), caller);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await stored(id)).toMatchObject({
      pk: `FEEDBACK#${id}`,
      sk: 'FEEDBACK',
      id,
      featureName: 'Schemas',
      text: 'Inferring a schema from samples saved me an hour.',
      usefulness: 5,
      locationUrl: input.locationUrl,
      screenWidth: 1440,
      userId: 'user-1',
    });
  });

  it('stores feedback without a usefulness as null', async () => {
    const { id } = await sendUserFeedback(event({ ...input, usefulness: null }), caller);
    expect((await stored(id))?.usefulness).toBeNull();
  });

  it('gives every feedback its own id', async () => {
    const ids = await Promise.all([1, 2, 3].map(() => sendUserFeedback(event(input), caller)));
    expect(new Set(ids.map((r) => r.id)).size).toBe(3);
  });

  it.each([
    ['no text', { ...input, feedback: { text: '' } }, 'text: This field is required'],
    ['usefulness 9', { ...input, usefulness: 9 }, `usefulness: ${USEFULNESS_RANGE}`],
    [
      'a javascript: location',
      { ...input, locationUrl: 'javascript:alert(1)' },
      'locationUrl: Must be the address of a page of Caracal',
    ],
    ['a huge text', { ...input, feedback: { text: 'x'.repeat(10_000) } }, 'text: Must be at most 5000 characters'],
  ])('refuses %s as InvalidInput with the rule broken', async (_name, bad, message) => {
    const error = await sendUserFeedback(event(bad), caller).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ errorType: 'InvalidInput', message });
    const [path, rule] = message.split(': ');
    expect((error as ApiError).fieldErrors).toEqual([{ path, message: rule }]);
  });
});
