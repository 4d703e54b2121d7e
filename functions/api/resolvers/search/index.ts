// Search resolvers (graphql/search.graphql): arguments checked here, the work in functions/lib/search.
import { ApiError } from '../../../lib/errors';
import {
  cancelSearch,
  deleteSavedSearch,
  getSearch,
  indicatorSearch,
  lakeCatalog,
  runSearch,
  savedSearch,
  savedSearches,
  saveSearch,
  searchHistory,
  searchResults,
  updateSavedSearch,
} from '../../../lib/search';
import { connection, decodeCursor, encodeCursor, idOf, inputOf, pageSizeOf } from '../arguments';
import { defineResolvers } from '../types';

const RESULTS_PAGE = { default: 100, max: 999 };
const LIST_PAGE = { default: 25, max: 100 };
/** An engine token is opaque text: kept base64url in the cursor. */
const ENGINE_TOKEN = /^[\x20-\x7e]{1,4000}$/;
const POSITION = /^[^#]{1,100}#[^#]{1,200}$/;
const SAVED_POSITION = /^.{1,400}#[0-9a-f-]{36}$/s;

export const searchResolvers = defineResolvers({
  'Query.search': (event, caller) => getSearch(idOf(event.arguments.id), caller.id).then((s) => s ?? null),

  'Query.searchResults': async (event, caller) => {
    const input = inputOf(event);
    const token = decodeCursor(input.cursor, (p) => ENGINE_TOKEN.test(p));
    const page = await searchResults(
      idOf(input.searchId, 'searchId'),
      caller.id,
      pageSizeOf(input.pageSize, RESULTS_PAGE),
      token,
    );
    return { ...page, cursor: page.cursor ? encodeCursor(page.cursor) : null };
  },

  'Query.lakeCatalog': () => lakeCatalog(),

  'Query.searchHistory': async (event, caller) => {
    const input = inputOf(event);
    const after = decodeCursor(input.cursor, (p) => POSITION.test(p));
    const pageSize = pageSizeOf(input.pageSize, LIST_PAGE);
    const page = await searchHistory(caller.id, pageSize, after);
    const last = page.items[page.items.length - 1];
    return connection(
      page.items,
      (i) => i.position,
      { next: page.hasNextPage && last ? last.position : null, after },
      (i) => i.node,
    );
  },

  'Query.savedSearches': async (event) => {
    const input = inputOf(event);
    const after = decodeCursor(input.cursor, (p) => SAVED_POSITION.test(p));
    if (input.search !== undefined && input.search !== null && (typeof input.search !== 'string' || input.search.length > 200))
      throw new ApiError('InvalidInput', 'search must be text of at most 200 characters');
    const page = await savedSearches(input.search ?? undefined, pageSizeOf(input.pageSize, LIST_PAGE), after);
    const last = page.items[page.items.length - 1];
    return connection(
      page.items,
      (i) => i.position,
      { next: page.hasNextPage && last ? last.position : null, after },
      (i) => i.node,
    );
  },

  'Query.savedSearch': (event) => savedSearch(idOf(event.arguments.id)).then((s) => s ?? null),

  'Query.indicatorSearch': (event, caller) => {
    const input = inputOf(event);
    return indicatorSearch(input.indicator, input.timeRange, caller.id);
  },

  'Mutation.runSearch': (event, caller) => runSearch(inputOf(event), caller.id),

  'Mutation.cancelSearch': (event, caller) => cancelSearch(idOf(event.arguments.id), caller.id),

  'Mutation.saveSearch': (event, caller) => saveSearch(inputOf(event), caller.id),

  'Mutation.updateSavedSearch': (event) => {
    const input = inputOf(event);
    if (typeof input.revision !== 'number' || !Number.isInteger(input.revision) || input.revision < 1)
      throw new ApiError('InvalidInput', 'revision must be a whole number from 1');
    return updateSavedSearch(idOf(input.id), input.revision, input);
  },

  'Mutation.deleteSavedSearch': (event) => deleteSavedSearch(idOf(event.arguments.id)),
});
