/**
 * The built app's chunk graph as the server serves it: the chunks a chunk imports statically
 * (`import … from "./x.js"`, `import "./x.js"` in Vite's output), at any depth, the chunk
 * itself included. All of them are loaded before its code runs.
 */
export async function loadedWith(origin: string, chunk: string): Promise<Set<string>> {
  const loaded = new Set<string>();
  const visit = async (url: string): Promise<void> => {
    if (loaded.has(url)) return;
    loaded.add(url);
    const code = await (await fetch(url)).text();
    const imports = [...code.matchAll(/\bimport\s*(?:[^"'();]*?\bfrom\s*)?["'](\.\/[^"']+\.js)["']/g)].map(
      (match) => new URL(match[1]!, url).href,
    );
    await Promise.all(imports.map(visit));
  };
  await visit(new URL(chunk, origin).href);
  return loaded;
}
