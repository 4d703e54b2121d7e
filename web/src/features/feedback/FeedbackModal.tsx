import { Button, Group, Input, Modal, Rating, Select, Stack, Text, Textarea, UnstyledButton } from '@mantine/core';
import { useFormik } from 'formik';
import { FEEDBACK_FEATURES, FEEDBACK_TEXT_MAX_LENGTH, USEFULNESS_MAX } from '../../../../core/validation/feedback';
import { feedbackSchema, type FeedbackFormValues } from './feedbackForm';

const FEATURE_OPTIONS = [...FEEDBACK_FEATURES];
const INITIAL_VALUES: FeedbackFormValues = { featureName: 'General', text: '', usefulness: 0 };

interface FeedbackModalProps {
  readonly opened: boolean;
  readonly onClose: () => void;
  /** Sends the feedback; answers whether it was received (the modal then empties and closes). */
  readonly onSend: (values: FeedbackFormValues) => Promise<boolean>;
}

/** Send Feedback: what the user thinks of a part of Caracal, with the page and screen width it came from. */
export function FeedbackModal({ opened, onClose, onSend }: FeedbackModalProps) {
  const form = useFormik<FeedbackFormValues>({
    initialValues: INITIAL_VALUES,
    validationSchema: feedbackSchema,
    onSubmit: async (values, helpers) => {
      if (!(await onSend({ ...values, text: values.text.trim() }))) return;
      helpers.resetForm();
      onClose();
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
