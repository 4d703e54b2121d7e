// Monaco from the app's own bundle: the editor API, the YAML language and the editor worker are all built
// by Vite (`?worker`), and @monaco-editor/react is told to use this copy, so nothing loads from a CDN.
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/languages/definitions/yaml/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';

self.MonacoEnvironment = { getWorker: () => new EditorWorker() };
loader.config({ monaco });

export { monaco };
