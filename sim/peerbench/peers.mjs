// peers.mjs steps a glTF scene (OMI_physics_shape boxes and spheres,
// OMI_physics_body static and dynamic bodies, OMI_physics_gravity world
// gravity) in the WebAssembly build of one engine peers ship on, single
// threaded, and prints one JSON line: the seconds the stepping loop took
// (setup excluded), the highest speed any body reached, and the lowest
// body centre at the end. physview's sim benchmark (peers_bench_test.go)
// runs it once per engine and scene.
//
//   node peers.mjs ENGINE SCENE.gltf STEP SECONDS
//   ENGINE: havok | physx | jolt | rapier
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const [engine, file, stepArg, secondsArg] = process.argv.slice(2);
const dt = Number(stepArg), steps = Math.round(Number(secondsArg) / dt);
const gltf = JSON.parse(readFileSync(file, 'utf8'));
const shapes = gltf.extensions.OMI_physics_shape.shapes;
const wg = gltf.extensions.OMI_physics_gravity;
const gravity = wg ? wg.direction.map((d) => d * wg.gravity) : [0, -9.80665, 0];
const friction = 0.6; // physview's default when a collider has no material

// bodies: {shape: {type, size|radius}, pos, dynamic, mass}
const bodies = [];
for (const n of gltf.nodes) {
  const b = n.extensions && n.extensions.OMI_physics_body;
  if (!b || !b.collider) continue;
  const s = shapes[b.collider.shape];
  const m = b.motion;
  bodies.push({
    shape: s.type === 'box' ? { type: 'box', half: s.box.size.map((v) => v / 2) } : { type: 'sphere', radius: s.sphere.radius },
    pos: n.translation || [0, 0, 0],
    dynamic: !!m && m.type === 'dynamic',
    mass: m && m.mass !== undefined ? m.mass : 1,
  });
}

// clock starts the timing of the stepping loop; report ends it and prints
// the wall and CPU seconds (the machine may be shared: CPU time is what
// the benchmark compares), the top speed seen and the lowest body.
let wall0 = 0, cpu0 = null;
function clock() {
  wall0 = performance.now();
  cpu0 = process.cpuUsage();
}
function report(states) {
  const seconds = (performance.now() - wall0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  let minY = Infinity;
  for (const s of states) minY = Math.min(minY, s);
  console.log(JSON.stringify({ engine, bodies: bodies.length, steps: steps - 1, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, maxSpeed: maxSpeedSeen, minY }));
}
let maxSpeedSeen = 0;
function track(v) {
  const s = Math.hypot(v[0], v[1], v[2]);
  if (s > maxSpeedSeen) maxSpeedSeen = s;
}

async function havok() {
  const { default: HavokPhysics } = await import('@babylonjs/havok');
  // Given the .wasm's bytes: under node it would fetch a file: URL.
  const HK = await HavokPhysics({ wasmBinary: readFileSync(new URL('./node_modules/@babylonjs/havok/lib/esm/HavokPhysics.wasm', import.meta.url)) });
  const [, world] = HK.HP_World_Create();
  HK.HP_World_SetGravity(world, gravity);
  HK.HP_World_SetIdealStepTime(world, dt);
  const dyn = [];
  for (const b of bodies) {
    const [, shape] = b.shape.type === 'box'
      ? HK.HP_Shape_CreateBox([0, 0, 0], [0, 0, 0, 1], b.shape.half.map((h) => 2 * h))
      : HK.HP_Shape_CreateSphere([0, 0, 0], b.shape.radius);
    HK.HP_Shape_SetMaterial(shape, [friction, friction, 0, HK.MaterialCombine.ARITHMETIC_MEAN, HK.MaterialCombine.ARITHMETIC_MEAN]);
    const [, body] = HK.HP_Body_Create();
    HK.HP_Body_SetShape(body, shape);
    HK.HP_Body_SetMotionType(body, b.dynamic ? HK.MotionType.DYNAMIC : HK.MotionType.STATIC);
    if (b.dynamic) {
      const [, mp] = HK.HP_Shape_BuildMassProperties(shape);
      HK.HP_Body_SetMassProperties(body, [mp[0], b.mass, mp[2], mp[3]]);
      dyn.push(body);
    }
    HK.HP_Body_SetQTransform(body, [b.pos, [0, 0, 0, 1]]);
    HK.HP_World_AddBody(world, body, false);
  }
  HK.HP_World_Step(world, dt); // warm-up: compiles the WASM paths
  clock();
  for (let i = 1; i < steps; i++) {
    HK.HP_World_Step(world, dt);
    if (i % 8 === 0) for (const d of dyn) track(HK.HP_Body_GetLinearVelocity(d)[1]);
  }
  report(dyn.map((d) => HK.HP_Body_GetQTransform(d)[1][0][1]));
}

async function rapier() {
  const { default: RAPIER } = await import('@dimforge/rapier3d-compat');
  await RAPIER.init();
  const world = new RAPIER.World({ x: gravity[0], y: gravity[1], z: gravity[2] });
  world.timestep = dt;
  const dyn = [];
  for (const b of bodies) {
    const desc = b.shape.type === 'box' ? RAPIER.ColliderDesc.cuboid(...b.shape.half) : RAPIER.ColliderDesc.ball(b.shape.radius);
    desc.setFriction(friction).setRestitution(0);
    if (!b.dynamic) {
      world.createCollider(desc.setTranslation(...b.pos));
      continue;
    }
    const rb = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(...b.pos));
    world.createCollider(desc.setMass(b.mass), rb);
    dyn.push(rb);
  }
  world.step();
  clock();
  for (let i = 1; i < steps; i++) {
    world.step();
    if (i % 8 === 0) for (const d of dyn) { const v = d.linvel(); track([v.x, v.y, v.z]); }
  }
  report(dyn.map((d) => d.translation().y));
}

async function jolt() {
  const { default: initJolt } = await import('jolt-physics');
  const Jolt = await initJolt();
  const MOVING = 1, NON_MOVING = 0;
  const settings = new Jolt.JoltSettings();
  settings.mMaxBodies = bodies.length + 16;
  // What the WASM build's fixed temporary allocator (10 MB) holds.
  settings.mMaxBodyPairs = 65536;
  settings.mMaxContactConstraints = 20480;
  const pairs = new Jolt.ObjectLayerPairFilterTable(2);
  pairs.EnableCollision(NON_MOVING, MOVING);
  pairs.EnableCollision(MOVING, MOVING);
  const bpNon = new Jolt.BroadPhaseLayer(0), bpMoving = new Jolt.BroadPhaseLayer(1);
  const bpi = new Jolt.BroadPhaseLayerInterfaceTable(2, 2);
  bpi.MapObjectToBroadPhaseLayer(NON_MOVING, bpNon);
  bpi.MapObjectToBroadPhaseLayer(MOVING, bpMoving);
  settings.mObjectLayerPairFilter = pairs;
  settings.mBroadPhaseLayerInterface = bpi;
  settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(bpi, 2, pairs, 2);
  const jolt = new Jolt.JoltInterface(settings);
  const system = jolt.GetPhysicsSystem();
  system.SetGravity(new Jolt.Vec3(...gravity));
  const bi = system.GetBodyInterface();
  const dyn = [];
  for (const b of bodies) {
    const shape = b.shape.type === 'box' ? new Jolt.BoxShape(new Jolt.Vec3(...b.shape.half), 0.05, null) : new Jolt.SphereShape(b.shape.radius, null);
    const cs = new Jolt.BodyCreationSettings(shape, new Jolt.RVec3(...b.pos), Jolt.Quat.prototype.sIdentity(),
      b.dynamic ? Jolt.EMotionType_Dynamic : Jolt.EMotionType_Static, b.dynamic ? MOVING : NON_MOVING);
    cs.mFriction = friction;
    cs.mRestitution = 0;
    if (b.dynamic) {
      cs.mOverrideMassProperties = Jolt.EOverrideMassProperties_CalculateInertia;
      cs.mMassPropertiesOverride.mMass = b.mass;
    }
    const body = bi.CreateBody(cs);
    Jolt.destroy(cs);
    bi.AddBody(body.GetID(), b.dynamic ? Jolt.EActivation_Activate : Jolt.EActivation_DontActivate);
    if (b.dynamic) dyn.push(body);
  }
  system.OptimizeBroadPhase();
  jolt.Step(dt, 1);
  clock();
  for (let i = 1; i < steps; i++) {
    jolt.Step(dt, 1);
    if (i % 8 === 0) for (const d of dyn) { const v = d.GetLinearVelocity(); track([v.GetX(), v.GetY(), v.GetZ()]); }
  }
  report(dyn.map((d) => d.GetPosition().GetY()));
}

async function physx() {
  // The package is built for the web only: it refuses to start when it
  // sees node (process.versions.node), and fetches its .wasm. It is given
  // the file's bytes, and node is hidden while it starts.
  const { default: PhysXModule } = await import('physx-js-webidl');
  const wasmBinary = readFileSync(new URL('./node_modules/physx-js-webidl/physx-js-webidl.wasm', import.meta.url));
  const versions = process.versions;
  Object.defineProperty(process, 'versions', { value: { ...versions, node: undefined }, configurable: true });
  globalThis.window ??= globalThis;
  let PhysX;
  try {
    PhysX = await PhysXModule({ wasmBinary });
  } finally {
    Object.defineProperty(process, 'versions', { value: versions, configurable: true });
  }
  const version = PhysX.PHYSICS_VERSION;
  const foundation = PhysX.CreateFoundation(version, new PhysX.PxDefaultAllocator(), new PhysX.PxDefaultErrorCallback());
  const tolerances = new PhysX.PxTolerancesScale();
  const physics = PhysX.CreatePhysics(version, foundation, tolerances);
  const desc = new PhysX.PxSceneDesc(tolerances);
  desc.set_gravity(new PhysX.PxVec3(...gravity));
  desc.set_cpuDispatcher(PhysX.DefaultCpuDispatcherCreate(0));
  desc.set_filterShader(PhysX.DefaultFilterShader());
  const scene = physics.createScene(desc);
  const material = physics.createMaterial(friction, friction, 0);
  const flags = new PhysX.PxShapeFlags(PhysX.PxShapeFlagEnum.eSCENE_QUERY_SHAPE | PhysX.PxShapeFlagEnum.eSIMULATION_SHAPE);
  const filter = new PhysX.PxFilterData(1, 1, 0, 0);
  const dyn = [];
  for (const b of bodies) {
    const geom = b.shape.type === 'box' ? new PhysX.PxBoxGeometry(...b.shape.half) : new PhysX.PxSphereGeometry(b.shape.radius);
    const shape = physics.createShape(geom, material, true, flags);
    shape.setSimulationFilterData(filter); // the default filter shader pairs groups 1 and 1
    const tm = new PhysX.PxTransform(new PhysX.PxVec3(...b.pos), new PhysX.PxQuat(0, 0, 0, 1));
    const actor = b.dynamic ? physics.createRigidDynamic(tm) : physics.createRigidStatic(tm);
    actor.attachShape(shape);
    if (b.dynamic) {
      PhysX.PxRigidBodyExt.prototype.setMassAndUpdateInertia(actor, b.mass);
      dyn.push(actor);
    }
    scene.addActor(actor);
  }
  scene.simulate(dt);
  scene.fetchResults(true);
  clock();
  for (let i = 1; i < steps; i++) {
    scene.simulate(dt);
    scene.fetchResults(true);
    if (i % 8 === 0) for (const d of dyn) { const v = d.getLinearVelocity(); track([v.get_x(), v.get_y(), v.get_z()]); }
  }
  report(dyn.map((d) => d.getGlobalPose().get_p().get_y()));
}

const run = { havok, rapier, jolt, physx }[engine];
if (!run) {
  console.error(`unknown engine ${engine}: havok, physx, jolt or rapier`);
  process.exit(2);
}
run().catch((e) => {
  console.error(`${engine}: ${e && e.stack || e}`);
  process.exit(1);
});
