import { LoadFailure } from '../../components/LoadFailure';

/** A schema that could not be loaded, with the API's reason when it gave one. */
export function SchemaLoadFailure({ message }: { readonly message?: string | null }) {
  return (
    <LoadFailure
      title="Could not load schema"
      message={message || "An unknown error occurred and we couldn't load the schema from the server"}
    />
  );
}
