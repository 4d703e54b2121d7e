import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useFormik } from 'formik';
import { profileSchema, type ProfileFormValues } from './profileForm';

interface ProfileFormProps {
  readonly user: { readonly givenName: string | null; readonly familyName: string | null };
  /** Saves the names, trimmed. */
  readonly onSave: (values: ProfileFormValues) => Promise<void>;
}

/** First and last name of the signed-in user; Save Changes only once something changed and is valid. */
export function ProfileForm({ user, onSave }: ProfileFormProps) {
  const form = useFormik<ProfileFormValues>({
    initialValues: { givenName: user.givenName ?? '', familyName: user.familyName ?? '' },
    validationSchema: profileSchema,
    onSubmit: (values) => onSave({ givenName: values.givenName.trim(), familyName: values.familyName.trim() }),
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
