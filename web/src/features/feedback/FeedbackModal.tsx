import { Button, Group, Input, Modal, Rating, Select, Stack, Text, Textarea, UnstyledButton } from '@mantine/core';
import { useMutation } from '@apollo/client/react';
import { notifications } from '@mantine/notifications';
import { useFormik } from 'formik';
import { FEEDBACK_FEATURES, FEEDBACK_TEXT_MAX_LENGTH, USEFULNESS_MAX } from '../../../../core/validation/feedback';
import { describeApiError } from '../../lib/apollo/apiErrors';
import type { DataLayerContext } from '../../lib/apollo/createApolloClient';
import { feedbackSchema, type FeedbackFormValues } from './feedbackForm';
import { SEND_USER_FEEDBACK_MUTATION } from '../../screens/Support/feedback.operations';

const SILENT: DataLayerContext = { silent: true };
const FEATURE_OPTIONS = [...FEEDBACK_FEATURES];
const INITIAL_VALUES: FeedbackFormValues = { featureName: 'General', text: '', usefulness: 0 };

interface FeedbackModalProps {
  readonly opened: boolean;
  readonly onClose: () => void;
}

/** Send Feedback: what the user thinks of a part of Caracal, with the page and screen width it came from. */
export function FeedbackModal({ opened, onClose }: FeedbackModalProps) {
  const [sendUserFeedback] = useMutation(SEND_USER_FEEDBACK_MUTATION, { context: SILENT });
  const form = useFormik<FeedbackFormValues>({
    initialValues: INITIAL_VALUES,
    validationSchema: feedbackSchema,
    onSubmit: async (values, helpers) => {
      try {
        await sendUserFeedback({
          variables: {
            input: {
              feature: { name: values.featureName },
              feedback: { text: values.text.trim() },
              usefulness: values.usefulness === 0 ? null : values.usefulness,
              locationUrl: window.location.href,
              screenWidth: window.screen.width,
            },
          },
        });
        notifications.show({ color: 'green', message: 'Feedback received. Thank you!' });
        helpers.resetForm();
        onClose();
      } catch (error) {
        notifications.show({ color: 'red', title: 'Failed to send feedback', message: describeApiError(error) });
      }
    },
  });
  const errorOf = (field: keyof FeedbackFormValues) => (form.touched[field] ? form.errors[field] : undefined);

  return (
    <Modal opened={opened} onClose={onClose} title="Send Feedback" size="lg" centered>
      <form onSubmit={form.handleSubmit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Tell us what works and what gets in your way. Your feedback is stored with the page you are on and your screen width.
          </Text>
          <Select
            label="Feature"
            data={FEATURE_OPTIONS}
            value={form.values.featureName}
            onChange={(value) => void form.setFieldValue('featureName', value ?? '')}
            allowDeselect={false}
            error={errorOf('featureName')}
            comboboxProps={{ withinPortal: true }}
          />
          <Textarea
            label="Feedback"
            name="text"
            required
            rows={5}
            maxLength={FEEDBACK_TEXT_MAX_LENGTH}
            placeholder="What would make this better?"
            value={form.values.text}
            onChange={form.handleChange}
            onBlur={form.handleBlur}
            error={errorOf('text')}
          />
          <Input.Wrapper
            label="How useful is it to you?"
            description="Optional: 1 (not useful) to 5 (very useful)"
            error={errorOf('usefulness')}
          >
            <Group gap="sm" mt={6}>
              <Rating
                value={form.values.usefulness}
                onChange={(value) => void form.setFieldValue('usefulness', value)}
                aria-label="Usefulness"
                getSymbolLabel={(value) => (value === 0 ? 'Not rated' : `${value} of ${USEFULNESS_MAX}`)}
              />
              {form.values.usefulness > 0 && (
                <UnstyledButton fz="xs" c="dimmed" onClick={() => void form.setFieldValue('usefulness', 0)}>
                  Clear
                </UnstyledButton>
              )}
            </Group>
          </Input.Wrapper>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={form.isSubmitting} disabled={form.isSubmitting || !form.dirty || !form.isValid}>
              Send Feedback
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
