import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@apollo/client/react';
import { notifications } from '@mantine/notifications';
import { useFormik } from 'formik';
import { CURRENT_USER_QUERY } from '../../app/shell/shell.operations';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { DataLayerContext } from '../../lib/apollo/createApolloClient';
import { useAuth } from '../../lib/auth/AuthContext';
import { profileSchema, type ProfileFormValues } from './profileForm';
import { UPDATE_PROFILE_MUTATION } from '../../app/shell/account/profile.operations';

const UNKNOWN_ERROR = 'An unknown error occurred';
const SILENT: DataLayerContext = { silent: true };

interface ProfileFormProps {
  readonly user: { readonly givenName: string | null; readonly familyName: string | null };
  readonly onSaved: () => void;
}

/** First and last name of the signed-in user; Save Changes only once something changed and is valid. */
export function ProfileForm({ user, onSaved }: ProfileFormProps) {
  const auth = useAuth();
  const [updateProfile] = useMutation(UPDATE_PROFILE_MUTATION, {
    context: SILENT,
    refetchQueries: [CURRENT_USER_QUERY],
    awaitRefetchQueries: true,
  });
  const form = useFormik<ProfileFormValues>({
    initialValues: { givenName: user.givenName ?? '', familyName: user.familyName ?? '' },
    validationSchema: profileSchema,
    onSubmit: async (values) => {
      try {
        await updateProfile({
          variables: { input: { givenName: values.givenName.trim(), familyName: values.familyName.trim() } },
        });
        notifications.show({ color: 'green', message: 'User profile updated successfully' });
        onSaved();
        await auth.refreshUser().catch(() => undefined);
      } catch (error) {
        notifications.show({
          color: 'red',
          title: 'Unable to update profile',
          message: error instanceof Error ? describeApiError(error) : UNKNOWN_ERROR,
        });
      }
    },
  });
  const errorOf = (field: keyof ProfileFormValues) => (form.touched[field] ? form.errors[field] : undefined);

  return (
    <form onSubmit={form.handleSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label="First Name"
          name="givenName"
          required
          autoComplete="given-name"
          value={form.values.givenName}
          onChange={form.handleChange}
          onBlur={form.handleBlur}
          error={errorOf('givenName')}
        />
        <TextInput
          label="Last Name"
          name="familyName"
          required
          autoComplete="family-name"
          value={form.values.familyName}
          onChange={form.handleChange}
          onBlur={form.handleBlur}
          error={errorOf('familyName')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.isSubmitting} disabled={form.isSubmitting || !form.dirty || !form.isValid}>
            Save Changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
