// Setup of the unit project's files. In jsdom files, screens load with their routes (React.lazy), so the
// first render of a route waits for its module to be transformed and imported: on a loaded machine that
// takes longer than testing-library's default 1 s for findBy*/waitFor. Node-only files skip this.
if ('document' in globalThis) {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 10_000 });
}

export {};
