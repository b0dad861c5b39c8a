// draco_outside.cjs writes the fixtures of Draco primitives with attributes
// outside the Draco stream, which KHR_draco_mesh_compression allows
// ("attributes not in the extension are processed as usual"), from
// source.glb, with glTF-Transform's own Draco encoder:
//
//   draco_sparse.glb    the sphere's POSITION is sparse: glTF-Transform
//                       keeps it outside Draco (NORMAL, UV, colour inside);
//                       every attribute of the box is sparse, so its Draco
//                       stream holds triangles and no point at all.
//   draco_morph.glb     the sphere has a morph target (outside Draco, beside
//                       it: the encoder then keeps the vertex order).
//   draco_quant.glb     KHR_mesh_quantization first (integer attributes in
//                       Draco, the morph target quantized outside).
//
// and for each X.glb its decoded twin X.decoded.glb, as glTF-Transform
// decodes it (read with the Draco decoder, written uncompressed), which the
// tests compare with what physview reads.
//
//   NODE_PATH=/path/to/npm/node_modules node draco_outside.cjs
const path = require('path');
const { NodeIO } = require('@gltf-transform/core');
const { ALL_EXTENSIONS } = require('@gltf-transform/extensions');
const { draco, quantize } = require('@gltf-transform/functions');
const draco3d = require('draco3dgltf');

async function main() {
	const dir = __dirname;
	const io = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
		'draco3d.decoder': await draco3d.createDecoderModule(),
		'draco3d.encoder': await draco3d.createEncoderModule(),
	});
	const at = (f) => path.join(dir, f);

	const addTarget = (doc) => {
		const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0];
		const pos = prim.getAttribute('POSITION');
		const n = pos.getCount();
		const d = new Float32Array(3 * n);
		const el = [0, 0, 0];
		for (let i = 0; i < n; i++) {
			pos.getElement(i, el);
			d[3 * i + 1] = el[1] > 0 ? 0.3 * el[1] : 0; // stretch the top half
		}
		const acc = doc.createAccessor('bulge').setType('VEC3').setArray(d).setBuffer(pos.getBuffer());
		prim.addTarget(doc.createPrimitiveTarget('bulge').setAttribute('POSITION', acc));
		doc.getRoot().listMeshes()[0].setWeights([0.5]);
	};

	const write = async (doc, name) => {
		await io.write(at(name), doc);
		const back = await io.read(at(name));
		for (const ext of back.getRoot().listExtensionsUsed()) {
			if (ext.extensionName === 'KHR_draco_mesh_compression') ext.dispose();
		}
		await io.write(at(name.replace(/\.glb$/, '.decoded.glb')), back);
	};

	let doc = await io.read(at('source.glb'));
	doc.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION').setSparse(true);
	for (const s of doc.getRoot().listMeshes()[1].listPrimitives()[0].listSemantics()) {
		doc.getRoot().listMeshes()[1].listPrimitives()[0].getAttribute(s).setSparse(true);
	}
	await doc.transform(draco({ method: 'edgebreaker' }));
	await write(doc, 'draco_sparse.glb');

	doc = await io.read(at('source.glb'));
	addTarget(doc);
	await doc.transform(draco({ method: 'edgebreaker' }));
	await write(doc, 'draco_morph.glb');

	doc = await io.read(at('source.glb'));
	addTarget(doc);
	await doc.transform(quantize(), draco({ method: 'edgebreaker' }));
	await write(doc, 'draco_quant.glb');
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
