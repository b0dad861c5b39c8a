#version 330 core
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec4 aTangent;
layout(location = 3) in vec2 aUV0;
layout(location = 4) in vec2 aUV1;
layout(location = 5) in vec4 aColor;
// Skins: JOINTS_0, WEIGHTS_0, JOINTS_1, WEIGHTS_1 (eight influences).
layout(location = 6) in vec4 aJoints0;
layout(location = 7) in vec4 aWeights0;
layout(location = 8) in vec4 aJoints1;
layout(location = 9) in vec4 aWeights1;
// EXT_mesh_gpu_instancing: the instance's transform (locations 10-13).
layout(location = 10) in mat4 aInstance;
// A third UV set (uvSets in render/renderer.go says which glTF set).
layout(location = 14) in vec2 aUV2;

uniform mat4 uModel;
uniform mat4 uViewProj;
uniform mat3 uNormalMatrix;

// The vertex paths are compiled in only where a draw needs them (on a
// software rasteriser an if on a uniform runs both sides for every
// vertex: the joint and batch fetches tripled a plain mesh's vertex cost):
// VERTEX_DYNAMIC for skins, morph targets and EXT_mesh_gpu_instancing
// (render/anim.go), VERTEX_BATCH for the instanced draw of repeated nodes
// (render/batch.go); neither for everything else.
#ifdef VERTEX_DYNAMIC
// uSkinned: the vertex goes to world space by its joints' matrices (joint
// world * inverse bind, four texels each in uJointTex); uModel is unused.
uniform bool uSkinned;
uniform samplerBuffer uJointTex;
// Skins of up to 256 joints have their matrices in this block instead
// (uJointsInBlock): much faster to read than a buffer texture on Mesa.
layout(std140) uniform Joints {
    mat4 uJoints[256];
};
uniform bool uJointsInBlock;
// uJointCount is the skin's joint count: an influence naming a joint past
// it counts as the identity's absence (weight dropped), not a stray read.
uniform int uJointCount;
// Morph targets: uMorphCount targets, three texels (position, normal,
// tangent deltas) per target and vertex in uMorphTex, weights in uWeightTex.
uniform int uMorphCount;
uniform int uVertexCount;
uniform samplerBuffer uMorphTex;
uniform samplerBuffer uWeightTex;
uniform bool uInstanced;
#endif
#ifdef VERTEX_BATCH
// One instanced draw stands for many nodes that draw the same buffers
// with the same material (render/batch.go): instance
// uBatchFirst + gl_InstanceID's model matrix (four texels) and normal
// matrix (three: its columns) are in uBatchTex, seven texels each, the
// very floats uModel and uNormalMatrix would hold (same pixels).
uniform int uBatchFirst;
uniform samplerBuffer uBatchTex;
#endif

out vec3 vWorldPos;
out vec3 vNormal;
// The attributes a primitive does not hold (NO_TANGENT, NO_UV1, NO_UV2,
// NO_COLOR: its buffer has the defaults there) are not passed on: the
// fragment shader takes the default as a constant. On a software
// rasteriser every varying costs set-up per triangle and per vertex.
out vec2 vUV0;
#ifndef NO_TANGENT
out vec4 vTangent;
#endif
#ifndef NO_UV1
out vec2 vUV1;
#endif
#ifndef NO_UV2
out vec2 vUV2;
#endif
#ifndef NO_COLOR
out vec4 vColor;
#endif

#ifdef VERTEX_DYNAMIC
mat4 joint(float j) {
    if (int(j) >= uJointCount) {
        return mat4(0.0);
    }
    if (uJointsInBlock) {
        return uJoints[int(j)];
    }
    int b = int(j) * 4;
    return mat4(texelFetch(uJointTex, b), texelFetch(uJointTex, b + 1),
                texelFetch(uJointTex, b + 2), texelFetch(uJointTex, b + 3));
}

// normalFor returns the matrix that carries normals for m: its cofactor
// matrix (the inverse transpose times the determinant), with the sign of
// the determinant so a mirroring m keeps normals outward; the caller
// normalises. Cheaper than inverse() per vertex.
mat3 normalFor(mat4 m) {
    vec3 c0 = m[0].xyz, c1 = m[1].xyz, c2 = m[2].xyz;
    mat3 cof = mat3(cross(c1, c2), cross(c2, c0), cross(c0, c1));
    return dot(c0, cross(c1, c2)) < 0.0 ? -cof : cof;
}
#endif

void main() {
    vec3 pos = aPosition;
    vec3 nrm = aNormal;
    vec3 tan = aTangent.xyz;
#ifdef VERTEX_DYNAMIC
    for (int t = 0; t < uMorphCount; t++) {
        float w = texelFetch(uWeightTex, t).r;
        if (w == 0.0) {
            continue;
        }
        int b = (t * uVertexCount + gl_VertexID) * 3;
        pos += w * texelFetch(uMorphTex, b).xyz;
        nrm += w * texelFetch(uMorphTex, b + 1).xyz;
        tan += w * texelFetch(uMorphTex, b + 2).xyz;
    }
#endif
    mat4 model = uModel;
    mat3 normalMatrix = uNormalMatrix;
#ifdef VERTEX_DYNAMIC
    if (uSkinned) {
        model = aWeights0.x * joint(aJoints0.x) + aWeights0.y * joint(aJoints0.y) +
                aWeights0.z * joint(aJoints0.z) + aWeights0.w * joint(aJoints0.w);
        if (aWeights1 != vec4(0.0)) {
            model += aWeights1.x * joint(aJoints1.x) + aWeights1.y * joint(aJoints1.y) +
                     aWeights1.z * joint(aJoints1.z) + aWeights1.w * joint(aJoints1.w);
        }
        normalMatrix = normalFor(model);
    } else if (uInstanced) {
        model = uModel * aInstance;
        normalMatrix = normalFor(model);
    }
#endif
#ifdef VERTEX_BATCH
    {
        int b = (uBatchFirst + gl_InstanceID) * 7;
        model = mat4(texelFetch(uBatchTex, b), texelFetch(uBatchTex, b + 1),
                     texelFetch(uBatchTex, b + 2), texelFetch(uBatchTex, b + 3));
        normalMatrix = mat3(texelFetch(uBatchTex, b + 4).xyz, texelFetch(uBatchTex, b + 5).xyz,
                            texelFetch(uBatchTex, b + 6).xyz);
    }
#endif
    vec4 world = model * vec4(pos, 1.0);
    vWorldPos = world.xyz;
    vNormal = normalize(normalMatrix * nrm);
    vUV0 = aUV0;
#ifndef NO_TANGENT
    vTangent = vec4(normalize(mat3(model) * tan), aTangent.w);
#endif
#ifndef NO_UV1
    vUV1 = aUV1;
#endif
#ifndef NO_UV2
    vUV2 = aUV2;
#endif
#ifndef NO_COLOR
    vColor = aColor;
#endif
    gl_Position = uViewProj * world;
}
