/**
 * Tenancy by structure (docs/decisions.md): a query on a team-owned table — one with a `team_id` column in
 * db/tables.ts — goes through db/scoped.ts's `teamScope`, unless the function it is written in says it acts
 * for every team by its name (`…ServiceWide`). Read from the sources with the TypeScript parser.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const QUERY_METHODS = new Set(['selectFrom', 'updateTable', 'deleteFrom', 'insertInto']);
const SCOPE_FACTORY = 'teamScope';
const SCOPE_TYPE = 'TeamScope';

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** The tables of `interface Database` whose row interface has a `team_id` member. */
function teamOwnedTables(tablesFile: string): Set<string> {
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  for (const statement of parse(tablesFile).statements) {
    if (ts.isInterfaceDeclaration(statement)) interfaces.set(statement.name.text, statement);
  }
  const memberNames = (decl: ts.InterfaceDeclaration) =>
    decl.members.flatMap((member) => (member.name && ts.isIdentifier(member.name) ? [member.name.text] : []));
  const owned = new Set<string>();
  for (const member of interfaces.get('Database')!.members) {
    if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeReferenceNode(member.type)) continue;
    const row = interfaces.get(member.type.typeName.getText());
    if (row && memberNames(row).includes('team_id')) owned.add((member.name as ts.Identifier).text);
  }
  return owned;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['migrations', 'generated'].includes(entry.name) ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The names of the functions a node is written in, innermost first: declarations, methods, and the variables functions are assigned to. */
function enclosingFunctionNames(node: ts.Node): string[] {
  const names: string[] = [];
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if ((ts.isFunctionDeclaration(at) || ts.isMethodDeclaration(at) || ts.isFunctionExpression(at)) && at.name) names.push(at.name.getText());
    else if (ts.isArrowFunction(at) || ts.isFunctionExpression(at)) {
      // `const name = (…) => …`, or `const name = wrapper((…) => …)` (db/compiled-query.ts)
      const holder = ts.isCallExpression(at.parent) ? at.parent.parent : at.parent;
      if (holder && (ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder)) && holder.name) names.push(holder.name.getText());
    }
  }
  return names;
}

/** Identifiers of the file bound to a team scope: `const x = teamScope(…)` or a parameter typed `TeamScope`. */
function scopeNames(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && isScopeFactoryCall(node.initializer)) names.add(node.name.text);
    if (ts.isParameter(node) && ts.isIdentifier(node.name) && node.type?.getText() === SCOPE_TYPE) names.add(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return names;
}

function isScopeFactoryCall(node: ts.Expression): boolean {
  return ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === SCOPE_FACTORY;
}

/** The calls chained onto `call` (`call.where(…).whereRef(…)…`), outermost last. */
function chainedCalls(call: ts.CallExpression): ts.CallExpression[] {
  const chain: ts.CallExpression[] = [];
  let at: ts.Node = call;
  while (ts.isPropertyAccessExpression(at.parent) && ts.isCallExpression(at.parent.parent)) {
    at = at.parent.parent;
    chain.push(at as ts.CallExpression);
  }
  return chain;
}

/** A subquery joined to its outer query by team (`whereRef('x.team_id', '=', 'outer.team_id')`): as scoped as the outer query. */
function isCorrelatedByTeam(call: ts.CallExpression): boolean {
  return chainedCalls(call).some((link) => {
    const access = link.expression as ts.PropertyAccessExpression;
    const [left, , right] = link.arguments.map((arg) => (ts.isStringLiteral(arg) ? arg.text : ''));
    return access.name.text === 'whereRef' && left!.endsWith('.team_id') && right!.endsWith('.team_id');
  });
}

/** Every query on a team-owned table outside db/scoped.ts that is neither scoped nor in a `…ServiceWide` function. */
function unscopedQueries(files: string[], teamTables: Set<string>): string[] {
  const found: string[] = [];
  for (const fileName of files) {
    if (path.relative(src, fileName) === path.join('db', 'scoped.ts')) continue;
    const file = parse(fileName);
    const scopes = scopeNames(file);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && QUERY_METHODS.has(node.expression.name.text)) {
        const table = node.arguments[0];
        const receiver = node.expression.expression;
        const tableName = table && ts.isStringLiteralLike(table) ? table.text.split(' as ')[0]! : undefined;
        const scoped = isScopeFactoryCall(receiver) || (ts.isIdentifier(receiver) && scopes.has(receiver.text));
        const functions = enclosingFunctionNames(node);
        if (tableName && teamTables.has(tableName) && !scoped && !isCorrelatedByTeam(node) && !functions.some((name) => name.endsWith('ServiceWide'))) {
          const { line } = file.getLineAndCharacterOfPosition(node.getStart());
          found.push(`${path.relative(src, fileName)}:${line + 1} ${functions[0] ?? '(top level)'}: ${node.expression.name.text}('${tableName}')`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

describe('tenancy by structure', () => {
  const teamTables = teamOwnedTables(path.join(src, 'db/tables.ts'));

  it('knows the team-owned tables from db/tables.ts', () => {
    expect(teamTables).toContain('runs');
    expect(teamTables).toContain('webhooks');
    expect(teamTables).not.toContain('teams');
    expect(teamTables).not.toContain('rate_limit_counters');
  });

  it('every query on a team-owned table is team-scoped or named …ServiceWide', () => {
    expect(unscopedQueries(sourceFiles(src), teamTables)).toEqual([]);
  });

  it('finds an unscoped query, and accepts a scoped one or a …ServiceWide function', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenancy-probe-'));
    try {
      const probe = path.join(dir, 'probe.ts');
      fs.writeFileSync(
        probe,
        [
          `export const findRun = (db, teamId, id) => db.selectFrom('runs').selectAll().where('id', '=', id);`,
          `export function dropKeys(db) { return db.deleteFrom('api_keys as k'); }`,
          `export const findScoped = (db, teamId, id) => teamScope(db, teamId).selectFrom('runs').where('id', '=', id);`,
          `export function viaName(db, teamId) { const team = teamScope(db, teamId); return team.updateTable('runs'); }`,
          `export function claimServiceWide(db) { return db.updateTable('runs'); }`,
          `export const teams = (db) => db.selectFrom('teams');`,
        ].join('\n'),
      );
      const found = unscopedQueries([probe], teamTables).map((line) => line.replace(/^.*probe\.ts:/, ''));
      expect(found).toEqual([`1 findRun: selectFrom('runs')`, `2 dropKeys: deleteFrom('api_keys')`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
