import { Alert, Button, Drawer, Group, Radio, Stack, Switch, Text, TextInput } from '@mantine/core';
import { Form, Formik } from 'formik';
import * as yup from 'yup';
import { STREAM_TYPES, STREAM_TYPE_TITLES, type StreamType } from '../../../../core/log-sources/types';
import { envelopeFieldWarning, validateEnvelopeField } from '../../../../core/log-sources/validation';
import { AlertIcon } from '../../components/icons';
import { coreRule } from '../../lib/forms/coreRule';
import type { LogSourceFieldsFragment, LogStreamType } from '../../lib/graphql/types';

const DESCRIPTIONS: Record<StreamType, string> = {
  Auto: 'Caracal decides per object: a JSON array, CloudWatch Logs messages, or one event per line.',
  Lines: 'One event per line (JSON lines, CSV, syslog, ...).',
  JSON: 'A stream of JSON documents, one after another, possibly spread over several lines.',
  JsonArray: 'One JSON array of events, optionally enclosed in a field at the root of the document.',
  CloudWatchLogs: 'CloudWatch Logs subscription messages: each log event of a DATA_MESSAGE is an event.',
};

export interface StreamTypeValues {
  streamType: StreamType;
  enclosed: boolean;
  field: string;
}

export const streamTypeSchema = yup.object({
  streamType: yup
    .string()
    .oneOf([...STREAM_TYPES])
    .required(),
  enclosed: yup.boolean(),
  field: coreRule(yup.string(), (value, { streamType, enclosed }) =>
    streamType === 'JsonArray' && enclosed ? validateEnvelopeField(value) : undefined,
  ),
});

/** How a source's objects split into events, as the API takes it. */
export interface StreamTypeChoice {
  readonly streamType: LogStreamType;
  readonly jsonArrayEnvelopeField: string | null;
}

interface SetStreamTypeDrawerProps {
  readonly source: LogSourceFieldsFragment;
  readonly opened: boolean;
  readonly onClose: () => void;
  /** Saves the choice (and closes the sheet once saved). */
  readonly onSave: (choice: StreamTypeChoice) => Promise<void>;
}

/** The "Set log stream type" (Edit Log Format) sidesheet. */
export function SetStreamTypeDrawer({ source, opened, onClose, onSave }: SetStreamTypeDrawerProps) {
  const initial: StreamTypeValues = {
    streamType: source.streamType,
    enclosed: !!source.jsonArrayEnvelopeField,
    field: source.jsonArrayEnvelopeField ?? '',
  };
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="md" title={<Text fw={600}>Set log stream type</Text>}>
      <Formik<StreamTypeValues>
        initialValues={initial}
        enableReinitialize
        validationSchema={streamTypeSchema}
        onSubmit={(values) =>
          onSave({
            streamType: values.streamType as LogStreamType,
            jsonArrayEnvelopeField: values.streamType === 'JsonArray' && values.enclosed ? values.field.trim() : null,
          })
        }
      >
        {({ values, errors, touched, dirty, isValid, isSubmitting, setFieldValue, setFieldTouched }) => {
          const warning = values.streamType === 'JsonArray' && values.enclosed ? envelopeFieldWarning(values.field) : undefined;
          return (
            <Form noValidate>
              <Stack gap="md">
                <Text size="sm" c="dimmed">
                  How the bytes of each object or request of {source.label} split into events.
                </Text>
                <Radio.Group
                  name="streamType"
                  label="Stream type"
                  value={values.streamType}
                  onChange={(value) => void setFieldValue('streamType', value)}
                >
                  <Stack gap="sm" mt="xs">
                    {STREAM_TYPES.map((type) => (
                      <Radio key={type} value={type} label={STREAM_TYPE_TITLES[type]} description={DESCRIPTIONS[type]} />
                    ))}
                  </Stack>
                </Radio.Group>
                {values.streamType === 'JsonArray' && (
                  <Stack gap="sm">
                    <Switch
                      label="The array is enclosed in a root field"
                      checked={values.enclosed}
                      onChange={(event) => {
                        const on = event.currentTarget.checked;
                        void setFieldValue('enclosed', on);
                        if (!on) void setFieldValue('field', '');
                      }}
                    />
                    {values.enclosed && (
                      <TextInput
                        label="Field name"
                        description='The root-level field that holds the array, as in {"Records": [...]}.'
                        placeholder="Records"
                        withAsterisk
                        value={values.field}
                        onChange={(event) => {
                          void setFieldValue('field', event.currentTarget.value);
                          void setFieldTouched('field', true, false);
                        }}
                        onBlur={() => void setFieldTouched('field', true)}
                        error={touched.field ? errors.field : undefined}
                      />
                    )}
                    {warning && (
                      <Alert color="yellow" variant="light" icon={<AlertIcon size={16} />}>
                        {warning}
                      </Alert>
                    )}
                  </Stack>
                )}
                <Group justify="flex-end">
                  <Button variant="default" onClick={onClose}>
                    Cancel
                  </Button>
                  <Button type="submit" loading={isSubmitting} disabled={isSubmitting || !isValid || !dirty}>
                    Save
                  </Button>
                </Group>
              </Stack>
            </Form>
          );
        }}
      </Formik>
    </Drawer>
  );
}
