// A Sequelize (v6, over node-postgres) application's life, run by
// tests/clients/sequelize_test.go against sqlgate and PostgreSQL 15:
// sync({force}) of models with a foreign key, a unique email, JSONB, ARRAY,
// DECIMAL, ENUM-free defaults and timestamps; the model queries an app
// makes (operators, include, group with count, findAndCountAll, upsert,
// increment, bulkCreate returning, destroy); managed and unmanaged
// transactions with rollback; then sync({alter: true}) of changed models
// (a column added, one retyped, one made NOT NULL, one dropped) and
// describeTable after each step. Prints one "== step" section each (JSON);
// a failing step prints its SQLSTATE and message instead. Volatile values
// (timestamps) are printed as their kind only.
// Usage: node sequelize.js CONNECTION_STRING
'use strict';
const { Sequelize, DataTypes, Op } = require('sequelize');

const url = process.argv[2];

function define(sequelize, altered) {
  const User = sequelize.define('User', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    email: { type: DataTypes.STRING(120), allowNull: false, unique: true },
    name: altered ? { type: DataTypes.STRING(200), allowNull: false, defaultValue: '' } : { type: DataTypes.STRING(80) },
    active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    meta: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
    ...(altered ? { score: { type: DataTypes.INTEGER, allowNull: true } } : { legacy: { type: DataTypes.TEXT } }),
  }, { tableName: 'sq_users' });
  const Post = sequelize.define('Post', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    title: { type: DataTypes.STRING, allowNull: false },
    body: { type: DataTypes.TEXT },
    views: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    price: { type: altered ? DataTypes.DECIMAL(12, 3) : DataTypes.DECIMAL(10, 2) },
    tags: { type: DataTypes.ARRAY(DataTypes.STRING(20)), allowNull: false, defaultValue: [] },
    publishedAt: { type: DataTypes.DATE },
  }, { tableName: 'sq_posts', indexes: [{ fields: ['title'] }] });
  User.hasMany(Post, { foreignKey: { name: 'userId', allowNull: false }, as: 'posts', onDelete: 'CASCADE' });
  Post.belongsTo(User, { foreignKey: 'userId', as: 'author' });
  return { User, Post };
}

// plain turns model instances (and nested ones) into plain values with the
// volatile timestamps replaced by their kind.
function plain(v) {
  if (v === null || v === undefined) return v === undefined ? null : v;
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof Date) return 'Date';
  if (typeof v.get === 'function' && v.constructor && v.constructor.rawAttributes) return plain(v.get({ plain: true }));
  if (typeof v === 'object') {
    const out = {};
    for (const k of Object.keys(v).sort()) {
      out[k] = plain(v[k]);
    }
    return out;
  }
  return v;
}

async function section(name, fn) {
  process.stdout.write('== ' + name + '\n');
  try {
    const result = await fn();
    process.stdout.write(JSON.stringify(plain(result), null, 0) + '\n');
  } catch (e) {
    const orig = e.original || e.parent || e;
    process.stdout.write('ERROR ' + (orig.code || e.name) + ': ' + String(orig.message || e.message).split('\n')[0] + '\n');
  }
}

async function describe(sequelize) {
  const qi = sequelize.getQueryInterface();
  const out = {};
  for (const t of ['sq_users', 'sq_posts']) {
    out[t] = await qi.describeTable(t);
  }
  return out;
}

async function main() {
  const opts = { logging: false, dialect: 'postgres' };
  let sequelize = new Sequelize(url, opts);
  let { User, Post } = define(sequelize, false);

  await section('sync force', async () => { await sequelize.sync({ force: true }); return 'ok'; });
  await section('describe', () => describe(sequelize));
  await section('indexes', async () => {
    const qi = sequelize.getQueryInterface();
    const idx = await qi.showIndex('sq_posts');
    return idx.map((i) => ({ name: i.name, primary: i.primary, unique: i.unique, fields: i.fields.map((f) => f.attribute) }));
  });
  await section('foreign keys', async () => {
    const refs = await sequelize.getQueryInterface().getForeignKeyReferencesForTable('sq_posts');
    return refs.map((r) => ({ name: r.constraintName, column: r.columnName, table: r.referencedTableName, ref: r.referencedColumnName }));
  });
  await section('bulkCreate users', async () => {
    const users = await User.bulkCreate([
      { email: 'ada@example.com', name: 'Ada', meta: { lang: 'en', level: 3 } },
      { email: 'bob@example.com', name: 'Bob', active: false },
      { email: 'cy@example.com', name: null, meta: { lang: 'fr' } },
    ], { returning: true });
    return users.map((u) => [u.id, u.email, u.active, u.meta]);
  });
  await section('create posts', async () => {
    const rows = [
      [1, 'Hello world', 'first', 10, '9.99', ['intro', 'news'], '2024-01-02T10:00:00Z'],
      [1, 'Second post', null, 3, '0.50', [], '2024-01-05T12:30:00Z'],
      [2, 'Bob writes', 'hi', 0, null, ['misc'], null],
      [1, 'hello again', 'third', 7, '12.00', ['news'], '2024-02-01T00:00:00Z'],
    ];
    const out = [];
    for (const [userId, title, body, views, price, tags, at] of rows) {
      const p = await Post.create({ userId, title, body, views, price, tags, publishedAt: at && new Date(at) });
      out.push([p.id, p.title, p.views, p.tags]);
    }
    return out;
  });
  await section('create duplicate email', () => User.create({ email: 'ada@example.com' }));
  await section('where operators', () => Post.findAll({
    attributes: ['id', 'title'],
    where: { [Op.or]: [{ title: { [Op.iLike]: 'hello%' } }, { views: { [Op.between]: [1, 5] } }], userId: { [Op.in]: [1, 2] } },
    order: [['id', 'ASC']],
  }));
  await section('where null, not, like, array contains', async () => [
    await Post.findAll({ attributes: ['id'], where: { body: null }, order: [['id', 'ASC']] }),
    await Post.findAll({ attributes: ['id'], where: { price: { [Op.ne]: null }, title: { [Op.notLike]: '%post%' } }, order: [['id', 'ASC']] }),
    await Post.findAll({ attributes: ['id'], where: { tags: { [Op.contains]: ['news'] } }, order: [['id', 'ASC']] }),
    await Post.findAll({ attributes: ['id'], where: { tags: { [Op.overlap]: ['misc', 'intro'] } }, order: [['id', 'ASC']] }),
  ]);
  await section('json path where', () => User.findAll({ attributes: ['email'], where: { 'meta.lang': 'en' } }));
  await section('findOne include', async () => {
    const u = await User.findOne({
      where: { email: 'ada@example.com' },
      attributes: ['id', 'name'],
      include: [{ model: Post, as: 'posts', attributes: ['id', 'title'] }],
      order: [[{ model: Post, as: 'posts' }, 'id', 'DESC']],
    });
    return u;
  });
  await section('findAll include required limit', () => Post.findAll({
    attributes: ['id', 'title'],
    include: [{ model: User, as: 'author', attributes: ['email'], where: { active: true } }],
    order: [['views', 'DESC']], limit: 2, offset: 1,
  }));
  await section('group count', () => User.findAll({
    attributes: ['id', 'email', [sequelize.fn('COUNT', sequelize.col('posts.id')), 'postCount'],
      [sequelize.fn('COALESCE', sequelize.fn('SUM', sequelize.col('posts.views')), 0), 'views']],
    include: [{ model: Post, as: 'posts', attributes: [] }],
    group: ['User.id'],
    order: [['id', 'ASC']],
    raw: true,
  }));
  await section('findAndCountAll', async () => {
    const r = await Post.findAndCountAll({ attributes: ['id'], where: { views: { [Op.gte]: 3 } }, order: [['id', 'ASC']], limit: 2 });
    return [r.count, r.rows];
  });
  await section('aggregates', async () => [await Post.count(), await Post.max('views'), await Post.sum('views'),
    await Post.count({ distinct: true, col: 'userId' })]);
  await section('increment update', async () => {
    await Post.increment({ views: 5 }, { where: { userId: 1 } });
    const [n] = await Post.update({ body: 'edited' }, { where: { body: null } });
    return [n, await Post.findAll({ attributes: ['id', 'views', 'body'], order: [['id', 'ASC']] })];
  });
  await section('upsert', async () => {
    const [u1, created1] = await User.upsert({ email: 'dee@example.com', name: 'Dee' }, { conflictFields: ['email'] });
    const [u2, created2] = await User.upsert({ id: u1.id, email: 'dee@example.com', name: 'Dee 2' });
    return [created1, created2, u1.id === u2.id, (await User.findByPk(u1.id)).name];
  });
  await section('findOrCreate', async () => {
    const [a, made] = await User.findOrCreate({ where: { email: 'bob@example.com' }, defaults: { name: 'x' } });
    const [b, made2] = await User.findOrCreate({ where: { email: 'eve@example.com' }, defaults: { name: 'Eve' } });
    return [a.name, made, b.name, made2];
  });
  // (what the step made goes, so that the steps after it start alike)
  await section('destroy findOrCreate rows', () => User.destroy({ where: { email: 'eve@example.com' } }).then(() => 'ok'));
  await section('managed transaction rollback', async () => {
    try {
      await sequelize.transaction(async (t) => {
        await User.create({ email: 'tx@example.com', name: 'Tx' }, { transaction: t });
        await User.create({ email: 'ada@example.com' }, { transaction: t });
      });
    } catch (e) {
      const orig = e.original || e.parent || e;
      return ['rolled back: ' + orig.code, await User.count({ where: { email: 'tx@example.com' } })];
    }
    return 'committed';
  });
  await section('unmanaged transaction with savepoint', async () => {
    const t = await sequelize.transaction();
    await User.create({ email: 'outer@example.com' }, { transaction: t });
    const sp = await sequelize.transaction({ transaction: t });
    await User.create({ email: 'inner@example.com' }, { transaction: sp });
    await sp.rollback();
    await t.commit();
    return [await User.count({ where: { email: 'outer@example.com' } }), await User.count({ where: { email: 'inner@example.com' } })];
  });
  await section('lock for update', async () => sequelize.transaction(async (t) => {
    const u = await User.findOne({ where: { email: 'ada@example.com' }, lock: true, transaction: t });
    u.name = 'Ada L.';
    await u.save({ transaction: t });
    return u.name;
  }));
  await section('raw query replacements', () => sequelize.query(
    'SELECT email, char_length(email) AS n FROM sq_users WHERE id = :id OR email LIKE $1 ORDER BY id',
    { replacements: { id: 2 }, bind: ['c%'], type: Sequelize.QueryTypes.SELECT }).catch(() =>
    sequelize.query('SELECT email, char_length(email) AS n FROM sq_users WHERE id = :id ORDER BY id',
      { replacements: { id: 2 }, type: Sequelize.QueryTypes.SELECT })));
  await section('destroy cascade', async () => {
    const n = await User.destroy({ where: { email: 'bob@example.com' } });
    return [n, await Post.count()];
  });
  await section('fill names', async () => (await User.update({ name: '' }, { where: { name: null } }))[0]);
  await sequelize.close();

  sequelize = new Sequelize(url, opts);
  ({ User, Post } = define(sequelize, true));
  await section('sync alter', async () => { await sequelize.sync({ alter: true }); return 'ok'; });
  await section('describe after alter', () => describe(sequelize));
  await section('rows after alter', async () => [
    await User.findAll({ attributes: ['email', 'name', 'score'], order: [['email', 'ASC']] }),
    await Post.findAll({ attributes: ['id', 'price', 'userId'], order: [['id', 'ASC']] }),
  ]);
  await section('foreign keys after alter', async () => {
    const refs = await sequelize.getQueryInterface().getForeignKeyReferencesForTable('sq_posts');
    return refs.map((r) => ({ column: r.columnName, table: r.referencedTableName, ref: r.referencedColumnName }));
  });
  await section('drop all', async () => {
    await sequelize.drop();
    return (await sequelize.getQueryInterface().showAllTables()).filter((t) => t.startsWith('sq_'));
  });
  await sequelize.close();
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
