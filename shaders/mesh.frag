#version 330 core
// The renderer inserts #define SHEEN, CLEARCOAT, TRANSMISSION, IRIDESCENCE,
// ANISOTROPY, DIFFUSE_TRANSMISSION, SPECGLOSS, DIFFUSE_ROUGHNESS and FUZZ
// after the first line for
// materials that use them, so other materials compile and run without that
// code (on a software rasteriser both matter).
//
// glTF 2.0 PBR metallic-roughness (or KHR_materials_pbrSpecularGlossiness)
// with the KHR material extensions sheen, specular, ior, clearcoat,
// transmission, volume, dispersion, iridescence, anisotropy, diffuse
// transmission, emissive_strength, and the drafts diffuse_roughness, fuzz
// and coat (drawn by the clearcoat code with its IOR and colour),
// lit by image-based lighting (split sum: a prefiltered GGX cube map, a
// BRDF lookup table, irradiance as spherical harmonics) and up to 4
// punctual lights. The terms follow the Khronos specifications of each
// extension, as the Khronos glTF Sample Viewer computes them.
in vec3 vWorldPos;
in vec3 vNormal;
in vec2 vUV0;
// An attribute the primitive does not hold is its default, a constant
// (mesh.vert, NO_TANGENT etc.; a zero tangent means none).
#ifdef NO_TANGENT
const vec4 vTangent = vec4(0.0, 0.0, 0.0, 1.0);
#else
in vec4 vTangent;
#endif
#ifdef NO_UV1
const vec2 vUV1 = vec2(0.0);
#else
in vec2 vUV1;
#endif
#ifdef NO_UV2
const vec2 vUV2 = vec2(0.0);
#else
in vec2 vUV2;
#endif
#ifdef NO_COLOR
const vec4 vColor = vec4(1.0);
#else
in vec4 vColor;
#endif

out vec4 fragColor;

uniform vec4 uBaseColorFactor;
uniform float uMetallicFactor;
uniform float uRoughnessFactor;
uniform vec3 uEmissiveFactor;   // times KHR_materials_emissive_strength
uniform float uNormalScale;
uniform float uOcclusionStrength;
uniform int uAlphaMode;      // 0 opaque, 1 mask, 2 blend
uniform float uAlphaCutoff;
uniform bool uUnlit;

// KHR_materials_ior, _specular, _sheen, _clearcoat, _transmission, _volume.
uniform float uIor;
uniform float uSpecularFactor;
uniform vec3 uSpecularColorFactor;
uniform vec3 uSheenColorFactor;
uniform float uSheenRoughnessFactor;
uniform float uClearcoatFactor;
uniform float uClearcoatRoughnessFactor;
uniform float uClearcoatNormalScale;
uniform float uTransmissionFactor;
uniform float uThicknessFactor;
uniform vec3 uAttenuationColor;
uniform float uAttenuationDistance; // 0 means infinite
uniform float uDispersion;

// KHR_materials_pbrSpecularGlossiness (the diffuse factor is uBaseColorFactor).
uniform vec3 uSGSpecularFactor;
uniform float uGlossinessFactor;
// KHR_materials_iridescence.
uniform float uIridescenceFactor;
uniform float uIridescenceIor;
uniform vec2 uIridescenceThickness; // minimum, maximum (nm)
// KHR_materials_anisotropy: cos(rotation), sin(rotation), strength.
uniform vec3 uAnisotropy;
// KHR_materials_diffuse_transmission.
uniform float uDiffuseTransmissionFactor;
uniform vec3 uDiffuseTransmissionColor;
// KHR_materials_diffuse_roughness.
uniform float uDiffuseRoughness;
// KHR_materials_fuzz.
uniform float uFuzzFactor;
uniform vec3 uFuzzColor;
uniform float uFuzzRoughness;
// KHR_materials_coat through the clearcoat code: its Fresnel at normal
// incidence (0.04 for KHR_materials_clearcoat) and its colour.
uniform float uCoatF0;
uniform vec3 uCoatColor;

// Texture slots: 0 base colour, 1 metallic-roughness, 2 normal, 3 occlusion,
// 4 emissive, 5 sheen colour, 6 sheen roughness, 7 specular, 8 specular
// colour, 9 clearcoat, 10 clearcoat roughness, 11 clearcoat normal,
// 12 transmission, 13 thickness, 14 specular-glossiness, 15 iridescence,
// 16 iridescence thickness, 17 anisotropy, 18 diffuse transmission,
// 19 diffuse transmission colour, 20 diffuse roughness, 21 fuzz weight,
// 22 fuzz colour, 23 fuzz roughness.
uniform sampler2D uTex0, uTex1, uTex2, uTex3, uTex4, uTex5, uTex6, uTex7, uTex8, uTex9;
uniform sampler2D uTex10, uTex11, uTex12, uTex13, uTex14, uTex15, uTex16, uTex17, uTex18, uTex19;
uniform sampler2D uTex20, uTex21, uTex22, uTex23;
uniform bool uHasTex[24];
uniform int uTexCoord[24];
uniform mat3 uTexTransform[24];

uniform vec3 uCameraPos;
uniform int uLightCount;
uniform int uLightType[4];   // 0 directional, 1 point, 2 spot
uniform vec3 uLightColor[4]; // colour * intensity
uniform vec3 uLightPos[4];
uniform vec3 uLightDir[4];   // direction the light travels
uniform float uLightRange[4];
uniform vec2 uLightCone[4];  // cos(outer), cos(inner)

uniform samplerCube uEnvSpecular;
uniform sampler2D uBRDFLUT;     // GGX scale, bias; Charlie albedo
uniform vec3 uSH[9];            // irradiance / pi
uniform float uEnvMips;
uniform mat3 uEnvRotation;      // world direction to the environment's (EXT_lights_image_based)
uniform float uExposure;

uniform sampler2D uTransmissionFB; // the view after the opaque pass, as displayed, with mipmaps
uniform bool uHasTransmissionFB;
uniform mat4 uViewProj;
uniform mat4 uModel;

const float PI = 3.14159265359;

vec2 uvFor(int slot) {
    vec2 uv = uTexCoord[slot] == 2 ? vUV2 : uTexCoord[slot] == 1 ? vUV1 : vUV0;
    return (uTexTransform[slot] * vec3(uv, 1.0)).xy;
}

vec4 sampleTex(int slot) {
    // Called with constant slots only: each call reads one sampler, and a
    // sampler no enabled feature reads is not part of the program.
    vec2 uv = uvFor(slot);
    if (slot == 0) return texture(uTex0, uv);
    if (slot == 1) return texture(uTex1, uv);
    if (slot == 2) return texture(uTex2, uv);
    if (slot == 3) return texture(uTex3, uv);
    if (slot == 4) return texture(uTex4, uv);
#ifdef SHEEN
    if (slot == 5) return texture(uTex5, uv);
    if (slot == 6) return texture(uTex6, uv);
#endif
    if (slot == 7) return texture(uTex7, uv);
    if (slot == 8) return texture(uTex8, uv);
#ifdef CLEARCOAT
    if (slot == 9) return texture(uTex9, uv);
    if (slot == 10) return texture(uTex10, uv);
    if (slot == 11) return texture(uTex11, uv);
#endif
#ifdef TRANSMISSION
    if (slot == 12) return texture(uTex12, uv);
#endif
#if defined(TRANSMISSION) || defined(DIFFUSE_TRANSMISSION)
    if (slot == 13) return texture(uTex13, uv);
#endif
#ifdef SPECGLOSS
    if (slot == 14) return texture(uTex14, uv);
#endif
#ifdef IRIDESCENCE
    if (slot == 15) return texture(uTex15, uv);
    if (slot == 16) return texture(uTex16, uv);
#endif
#ifdef ANISOTROPY
    if (slot == 17) return texture(uTex17, uv);
#endif
#ifdef DIFFUSE_TRANSMISSION
    if (slot == 18) return texture(uTex18, uv);
    if (slot == 19) return texture(uTex19, uv);
#endif
#ifdef DIFFUSE_ROUGHNESS
    if (slot == 20) return texture(uTex20, uv);
#endif
#ifdef FUZZ
    if (slot == 21) return texture(uTex21, uv);
    if (slot == 22) return texture(uTex22, uv);
    if (slot == 23) return texture(uTex23, uv);
#endif
    return vec4(1.0);
}

float max3(vec3 v) { return max(v.r, max(v.g, v.b)); }

float D_GGX(float NdotH, float a) {
    float a2 = a * a;
    float d = NdotH * NdotH * (a2 - 1.0) + 1.0;
    return a2 / (PI * d * d);
}

float V_GGX(float NdotL, float NdotV, float a) {
    float a2 = a * a;
    float gv = NdotL * sqrt(NdotV * NdotV * (1.0 - a2) + a2);
    float gl = NdotV * sqrt(NdotL * NdotL * (1.0 - a2) + a2);
    float s = gv + gl;
    return s > 0.0 ? 0.5 / s : 0.0;
}

vec3 F_Schlick(vec3 f0, vec3 f90, float VdotH) {
    return f0 + (f90 - f0) * pow(clamp(1.0 - VdotH, 0.0, 1.0), 5.0);
}

// Charlie sheen distribution and its visibility (KHR_materials_sheen).
float D_Charlie(float r, float NdotH) {
    float a = max(r * r, 1e-6);
    float inv = 1.0 / a;
    float sin2 = 1.0 - NdotH * NdotH;
    return (2.0 + inv) * pow(sin2, inv * 0.5) / (2.0 * PI);
}

float lambdaSheenHelper(float x, float a) {
    float t = (1.0 - a) * (1.0 - a);
    return mix(21.5473, 25.3245, t) / (1.0 + mix(3.82987, 3.32435, t) * pow(x, mix(0.19823, 0.16801, t)))
        + mix(-1.97760, -1.27393, t) * x + mix(-4.32054, -4.85967, t);
}

float lambdaSheen(float c, float a) {
    if (abs(c) < 0.5) return exp(lambdaSheenHelper(c, a));
    return exp(2.0 * lambdaSheenHelper(0.5, a) - lambdaSheenHelper(1.0 - c, a));
}

float V_Sheen(float NdotL, float NdotV, float r) {
    float a = max(r * r, 1e-6);
    return clamp(1.0 / ((1.0 + lambdaSheen(NdotV, a) + lambdaSheen(NdotL, a)) * (4.0 * NdotV * NdotL)), 0.0, 1.0);
}

#ifdef DIFFUSE_ROUGHNESS
// KHR_materials_diffuse_roughness: the energy-conserving Oren-Nayar model
// (EON, Portsmouth et al. 2024, as OpenPBR defines its rough diffuse): the
// Fujii form of Oren-Nayar for single scattering plus a lobe that puts
// back the energy it loses. r is the diffuse roughness, rho the albedo.
const float FON_C1 = 0.5 - 2.0 / (3.0 * PI);
const float FON_C2 = 2.0 / 3.0 - 28.0 / (15.0 * PI);

// eFON is the directional albedo of the single-scattering lobe at cosine mu.
float eFON(float mu, float r) {
    float AF = 1.0 / (1.0 + FON_C1 * r);
    float m = 1.0 - mu;
    float g = m * (0.0571085289 + m * (0.491881867 + m * (-0.332181442 + m * 0.0714429953)));
    return AF * (1.0 + r * g);
}

// eonMultiAlbedo is the albedo of the multiple-scattering lobe.
vec3 eonMultiAlbedo(vec3 rho, float r) {
    float Eavg = 1.0 / (1.0 + FON_C1 * r) * (1.0 + FON_C2 * r);
    return rho * rho * Eavg / (vec3(1.0) - rho * (1.0 - Eavg));
}

// diffuseEON is the BRDF times pi (a Lambertian surface gives rho).
vec3 diffuseEON(vec3 rho, float r, float NdotL, float NdotV, float LdotV) {
    float AF = 1.0 / (1.0 + FON_C1 * r);
    float s = LdotV - NdotL * NdotV;
    float stinv = s > 0.0 ? s / max(NdotL, NdotV) : s;
    vec3 single = rho * AF * (1.0 + r * stinv);
    float Eavg = AF * (1.0 + FON_C2 * r);
    vec3 multi = eonMultiAlbedo(rho, r) * (1.0 - eFON(NdotL, r)) * (1.0 - eFON(NdotV, r)) / max(1.0 - Eavg, 1e-4);
    return single + multi;
}
#endif

#ifdef ANISOTROPY
// Anisotropic GGX (KHR_materials_anisotropy): the roughness along the
// anisotropy direction t widens with the strength.
float D_GGX_aniso(float NdotH, float TdotH, float BdotH, float at, float ab) {
    float a2 = at * ab;
    vec3 f = vec3(ab * TdotH, at * BdotH, a2 * NdotH);
    float w2 = a2 / dot(f, f);
    return a2 * w2 * w2 / PI;
}

float V_GGX_aniso(float NdotL, float NdotV, float BdotV, float TdotV, float TdotL, float BdotL, float at, float ab) {
    float gv = NdotL * length(vec3(at * TdotV, ab * BdotV, NdotV));
    float gl = NdotV * length(vec3(at * TdotL, ab * BdotL, NdotL));
    return clamp(0.5 / (gv + gl), 0.0, 1.0);
}

float specularGGXAniso(float a, float strength, vec3 n, vec3 v, vec3 l, vec3 h, vec3 t, vec3 b) {
    float at = mix(a, 1.0, strength * strength);
    float ab = clamp(a, 0.001, 1.0);
    float NdotL = clamp(dot(n, l), 0.0, 1.0);
    float NdotH = clamp(dot(n, h), 0.001, 1.0);
    float NdotV = dot(n, v);
    return V_GGX_aniso(NdotL, NdotV, dot(b, v), dot(t, v), dot(t, l), dot(b, l), at, ab)
        * D_GGX_aniso(NdotH, dot(t, h), dot(b, h), at, ab);
}
#endif

#ifdef IRIDESCENCE
// Thin-film interference (KHR_materials_iridescence), after Belcour and
// Barla 2017 as the Khronos Sample Viewer evaluates it: the Fresnel of an
// air / film / base stack, the spectral integral folded into three
// Gaussians in Fourier space.
const mat3 XYZ_TO_REC709 = mat3(
     3.2404542, -0.9692660,  0.0556434,
    -1.5371385,  1.8760108, -0.2040259,
    -0.4985314,  0.0415560,  1.0572252);

float sq(float x) { return x * x; }
vec3 sq(vec3 x) { return x * x; }

vec3 iorToF0(vec3 ior, float incident) { return sq((ior - vec3(incident)) / (ior + vec3(incident))); }
float iorToF0(float ior, float incident) { return sq((ior - incident) / (ior + incident)); }

vec3 evalSensitivity(float opd, vec3 shift) {
    float phase = 2.0 * PI * opd * 1.0e-9;
    vec3 val = vec3(5.4856e-13, 4.4201e-13, 5.2481e-13);
    vec3 pos = vec3(1.6810e+06, 1.7953e+06, 2.2084e+06);
    vec3 var = vec3(4.3278e+09, 9.3046e+09, 6.6121e+09);
    vec3 xyz = val * sqrt(2.0 * PI * var) * cos(pos * phase + shift) * exp(-phase * phase * var);
    xyz.x += 9.7470e-14 * sqrt(2.0 * PI * 4.5282e+09) * cos(2.2399e+06 * phase + shift[0]) * exp(-4.5282e+09 * phase * phase);
    return XYZ_TO_REC709 * (xyz / 1.0685e-7);
}

vec3 evalIridescence(float outsideIor, float filmIor, float cosTheta1, float thickness, vec3 baseF0) {
    // The film fades to nothing as it gets thinner than 30 nm.
    float eta2 = mix(outsideIor, filmIor, smoothstep(0.0, 0.03, thickness));
    float cosTheta2Sq = 1.0 - sq(outsideIor / eta2) * (1.0 - cosTheta1 * cosTheta1);
    if (cosTheta2Sq < 0.0) return vec3(1.0); // total internal reflection
    float cosTheta2 = sqrt(cosTheta2Sq);
    float R12 = iorToF0(eta2, outsideIor);
    R12 = R12 + (1.0 - R12) * pow(clamp(1.0 - cosTheta1, 0.0, 1.0), 5.0);
    float T121 = 1.0 - R12;
    float phi12 = eta2 < outsideIor ? PI : 0.0;
    float phi21 = PI - phi12;
    vec3 sqrtF0 = sqrt(clamp(baseF0, 0.0, 0.9999));
    vec3 baseIor = (1.0 + sqrtF0) / (1.0 - sqrtF0);
    vec3 R1 = iorToF0(baseIor, eta2);
    vec3 R23 = R1 + (1.0 - R1) * pow(clamp(1.0 - cosTheta2, 0.0, 1.0), 5.0);
    vec3 phi23 = vec3(baseIor.r < eta2 ? PI : 0.0, baseIor.g < eta2 ? PI : 0.0, baseIor.b < eta2 ? PI : 0.0);
    float opd = 2.0 * eta2 * thickness * cosTheta2;
    vec3 phi = vec3(phi21) + phi23;
    vec3 R123 = clamp(R12 * R23, 1e-5, 0.9999);
    vec3 r123 = sqrt(R123);
    vec3 Rs = sq(T121) * R23 / (1.0 - R123);
    vec3 I = R12 + Rs;
    vec3 Cm = Rs - T121;
    for (int m = 1; m <= 2; m++) {
        Cm *= r123;
        I += Cm * 2.0 * evalSensitivity(float(m) * opd, float(m) * phi);
    }
    return max(I, vec3(0.0));
}
#endif

// iblFresnel is the split-sum Fresnel of the environment as the Khronos
// Sample Viewer computes it: Schlick with a roughness-dependent grazing
// term, plus the energy of multiple scattering (Fdez-Aguera 2019), which
// keeps rough metals from darkening; w is the specular weight.
vec3 iblFresnel(vec3 F0, float w, float NdotV, float roughness, vec2 lut) {
    vec3 Fr = max(vec3(1.0 - roughness), F0) - F0;
    vec3 kS = F0 + Fr * pow(1.0 - NdotV, 5.0);
    vec3 FssEss = w * (kS * lut.x + lut.y);
    float Ems = 1.0 - (lut.x + lut.y);
    vec3 Favg = w * (F0 + (1.0 - F0) / 21.0);
    return FssEss + Ems * FssEss * Favg / (1.0 - Favg * Ems);
}

vec3 irradiance(vec3 n) {
    n = uEnvRotation * n;
    vec3 c = uSH[0] * 0.282095
        + uSH[1] * 0.488603 * n.y + uSH[2] * 0.488603 * n.z + uSH[3] * 0.488603 * n.x
        + uSH[4] * 1.092548 * n.x * n.y + uSH[5] * 1.092548 * n.y * n.z
        + uSH[6] * 0.315392 * (3.0 * n.z * n.z - 1.0)
        + uSH[7] * 1.092548 * n.x * n.z + uSH[8] * 0.546274 * (n.x * n.x - n.y * n.y);
    return max(c, vec3(0.0));
}

vec3 specularLight(vec3 dir, float roughness) {
    return textureLod(uEnvSpecular, uEnvRotation * dir, roughness * (uEnvMips - 1.0)).rgb;
}

// Khronos PBR Neutral tone mapping.
vec3 toneMap(vec3 color) {
    const float startCompression = 0.8 - 0.04;
    const float desaturation = 0.15;
    float x = min(color.r, min(color.g, color.b));
    float offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
    color -= offset;
    float peak = max(color.r, max(color.g, color.b));
    if (peak < startCompression) return color;
    const float d = 1.0 - startCompression;
    float newPeak = 1.0 - d * d / (peak + d - startCompression);
    color *= newPeak / peak;
    float g = 1.0 - 1.0 / (desaturation * (peak - newPeak) + 1.0);
    return mix(color, vec3(newPeak), g);
}

vec4 finish(vec3 color, float alpha) {
    color = toneMap(color * uExposure);
    return vec4(pow(clamp(color, 0.0, 1.0), vec3(1.0 / 2.2)), alpha);
}

#ifdef TRANSMISSION
// displayedToLinear undoes what finish did to a pixel of the view: the
// 1/2.2 encoding, the tone map (its linear part exactly; the highlight
// compression without its desaturation) and the exposure.
vec3 displayedToLinear(vec3 c) {
    c = pow(c, vec3(2.2));
    const float startCompression = 0.8 - 0.04;
    const float d = 1.0 - startCompression;
    float newPeak = max(c.r, max(c.g, c.b));
    if (newPeak >= startCompression) {
        float peak = d * d / max(1.0 - newPeak, 1e-3) - d + startCompression;
        c *= peak / newPeak;
    }
    float y = min(c.r, min(c.g, c.b));
    float x = y < 0.04 ? sqrt(y / 6.25) : y + 0.04;
    c += x - y;
    return c / uExposure;
}
#endif

// perturb applies a tangent-space normal map to the frame (t, b, ng).
vec3 perturb(int slot, float scale, vec3 t, vec3 b, vec3 ng) {
    vec3 tn = sampleTex(slot).xyz * 2.0 - 1.0;
    tn.xy *= scale;
    return normalize(mat3(t, b, ng) * normalize(tn));
}

void main() {
    vec4 base = uBaseColorFactor * vColor;
    if (uHasTex[0]) base *= sampleTex(0);
    if (uAlphaMode == 1 && base.a < uAlphaCutoff) discard;
    if (uAlphaMode != 2) base.a = 1.0;

    if (uUnlit) {
        fragColor = vec4(pow(base.rgb, vec3(1.0 / 2.2)), base.a);
        return;
    }

    float metallic = uMetallicFactor;
    float roughness = uRoughnessFactor;
#ifdef SPECGLOSS
    // The specular-glossiness workflow: F0 is the specular colour,
    // roughness 1 - glossiness, and the diffuse colour is the base colour
    // (the diffuse factor and texture); nothing is metallic.
    vec3 sgSpecular = uSGSpecularFactor;
    float glossiness = uGlossinessFactor;
    if (uHasTex[14]) {
        vec4 sg = sampleTex(14);
        sgSpecular *= sg.rgb;
        glossiness *= sg.a;
    }
    roughness = 1.0 - glossiness;
    metallic = 0.0;
#else
    if (uHasTex[1]) {
        vec4 mr = sampleTex(1);
        roughness *= mr.g;
        metallic *= mr.b;
    }
#endif
    roughness = clamp(roughness, 0.0, 1.0);
    metallic = clamp(metallic, 0.0, 1.0);

    // Tangent frame, only for normal maps: the tangent attribute when there
    // is one, otherwise from the screen-space derivatives of position and UV.
    vec3 ng = normalize(vNormal);
    vec3 t = vec3(1.0, 0.0, 0.0), b = vec3(0.0, 1.0, 0.0);
#ifdef ANISOTROPY
    const bool needFrame = true;
#else
    bool needFrame = uHasTex[2] || uHasTex[11];
#endif
    if (needFrame) {
        if (length(vTangent.xyz) > 0.5) {
            t = normalize(vTangent.xyz - ng * dot(ng, vTangent.xyz));
            b = cross(ng, t) * (vTangent.w < 0.0 ? -1.0 : 1.0);
        } else {
            vec2 uv = uvFor(uHasTex[2] ? 2 : 11);
            vec3 dpx = dFdx(vWorldPos), dpy = dFdy(vWorldPos);
            vec2 dux = dFdx(uv), duy = dFdy(uv);
            float det = dux.x * duy.y - duy.x * dux.y;
            vec3 t0 = abs(det) > 1e-12 ? (duy.y * dpx - dux.y * dpy) / det : vec3(1.0, 0.0, 0.0);
            t0 = t0 - ng * dot(ng, t0);
            if (length(t0) < 1e-8) t0 = abs(ng.x) < 0.9 ? cross(ng, vec3(1.0, 0.0, 0.0)) : cross(ng, vec3(0.0, 1.0, 0.0));
            t = normalize(t0);
            b = cross(ng, t);
        }
    }
    if (!gl_FrontFacing) {
        t = -t;
        b = -b;
        ng = -ng;
    }
    vec3 n = uHasTex[2] ? perturb(2, uNormalScale, t, b, ng) : ng;
    vec3 v = normalize(uCameraPos - vWorldPos);
    float NdotV = clamp(dot(n, v), 1e-4, 1.0);

    // Dielectric Fresnel from the IOR, tinted and weighted by
    // KHR_materials_specular; metals reflect their base colour.
    float specW = uSpecularFactor;
    if (uHasTex[7]) specW *= sampleTex(7).a;
    vec3 specColor = uSpecularColorFactor;
    if (uHasTex[8]) specColor *= sampleTex(8).rgb;
    float f0ior = pow((uIor - 1.0) / (uIor + 1.0), 2.0);
    vec3 f0dUnweighted = min(vec3(f0ior) * specColor, vec3(1.0));
#ifdef SPECGLOSS
    f0dUnweighted = sgSpecular;
    specW = 1.0;
#endif
    vec3 f0d = f0dUnweighted * specW;
    vec3 f90d = vec3(specW);
    vec3 f0 = mix(f0d, base.rgb, metallic);
    vec3 f90 = mix(f90d, vec3(1.0), metallic);
    vec3 diffuseColor = base.rgb * (1.0 - metallic);
    float a = roughness * roughness;

#ifdef SHEEN
    vec3 sheenColor = uSheenColorFactor;
    if (uHasTex[5]) sheenColor *= sampleTex(5).rgb;
    float sheenRough = uSheenRoughnessFactor;
    if (uHasTex[6]) sheenRough *= sampleTex(6).a;
    bool hasSheen = max3(sheenColor) > 0.0;
#else
    const vec3 sheenColor = vec3(0.0);
    const float sheenRough = 0.0;
    const bool hasSheen = false;
#endif

#ifdef CLEARCOAT
    float cc = uClearcoatFactor;
    if (uHasTex[9]) cc *= sampleTex(9).r;
    float ccRough = uClearcoatRoughnessFactor;
    if (uHasTex[10]) ccRough *= sampleTex(10).g;
    ccRough = clamp(ccRough, 0.0, 1.0);
    vec3 ccN = uHasTex[11] ? perturb(11, uClearcoatNormalScale, t, b, ng) : ng;
#else
    const float cc = 0.0;
    const float ccRough = 0.0;
    vec3 ccN = ng;
#endif

#ifdef TRANSMISSION
    float transmission = uTransmissionFactor;
    if (uHasTex[12]) transmission *= sampleTex(12).r;
    float thickness = uThicknessFactor;
    if (uHasTex[13]) thickness *= sampleTex(13).g;
#else
    const float transmission = 0.0;
    const float thickness = 0.0;
#endif

#ifdef IRIDESCENCE
    float irF = uIridescenceFactor;
    if (uHasTex[15]) irF *= sampleTex(15).r;
    float irThick = uIridescenceThickness.y;
    if (uHasTex[16]) irThick = mix(uIridescenceThickness.x, uIridescenceThickness.y, sampleTex(16).g);
    if (irThick == 0.0) irF = 0.0;
    // The film's Fresnel over the dielectric and over the metal, at the
    // view angle (the Sample Viewer uses it for every light too).
    // (Each only where it is weighted: a pure metal or dielectric pays one.)
    vec3 irD = metallic < 1.0 ? evalIridescence(1.0, uIridescenceIor, NdotV, irThick, f0dUnweighted) : vec3(0.0);
    vec3 irM = metallic > 0.0 ? evalIridescence(1.0, uIridescenceIor, NdotV, irThick, base.rgb) : vec3(0.0);
#endif

#ifdef ANISOTROPY
    vec2 anDir = vec2(1.0, 0.0);
    float anStrength = uAnisotropy.z;
    if (uHasTex[17]) {
        vec3 s = sampleTex(17).rgb;
        anDir = s.xy * 2.0 - 1.0;
        anStrength *= s.z;
    }
    anDir = mat2(uAnisotropy.x, uAnisotropy.y, -uAnisotropy.y, uAnisotropy.x) * anDir;
    vec3 anT = mat3(t, b, n) * normalize(vec3(anDir, 0.0));
    vec3 anB = cross(ng, anT);
    anStrength = clamp(anStrength, 0.0, 1.0);
#endif

#ifdef DIFFUSE_TRANSMISSION
    float dtF = uDiffuseTransmissionFactor;
    if (uHasTex[18]) dtF *= sampleTex(18).a;
    vec3 dtColor = uDiffuseTransmissionColor;
    if (uHasTex[19]) dtColor *= sampleTex(19).rgb;
    // Light through the volume's thickness (mean scale), when it has one.
    float dtThick = uThicknessFactor;
    if (uHasTex[13]) dtThick *= sampleTex(13).g;
    dtThick *= (length(uModel[0].xyz) + length(uModel[1].xyz) + length(uModel[2].xyz)) / 3.0;
    vec3 dtAtten = uAttenuationDistance > 0.0 ? pow(uAttenuationColor, vec3(dtThick / uAttenuationDistance)) : vec3(1.0);
#endif

#ifdef DIFFUSE_ROUGHNESS
    float dRough = uDiffuseRoughness;
    if (uHasTex[20]) dRough *= sampleTex(20).r;
    dRough = clamp(dRough, 0.0, 1.0);
#endif

#ifdef FUZZ
    float fuzzW = uFuzzFactor;
    if (uHasTex[21]) fuzzW *= sampleTex(21).r;
    vec3 fuzzColor = uFuzzColor;
    if (uHasTex[22]) fuzzColor *= sampleTex(22).rgb;
    float fuzzRough = uFuzzRoughness;
    if (uHasTex[23]) fuzzRough *= sampleTex(23).a;
    fuzzW = clamp(fuzzW, 0.0, 1.0);
    fuzzRough = clamp(fuzzRough, 0.0, 1.0);
    // The fuzz reflectance at the view angle: the Charlie lobe's albedo
    // (the table KHR_materials_sheen uses), standing in for the LTC table
    // the draft recommends.
    float fuzzE = texture(uBRDFLUT, vec2(NdotV, fuzzRough)).b;
#endif

#ifdef CLEARCOAT
    // KHR_materials_coat tints what is below by its colour, by its weight.
    vec3 coatTint = mix(vec3(1.0), uCoatColor, clamp(cc, 0.0, 1.0));
#endif

    vec3 lut = texture(uBRDFLUT, vec2(NdotV, roughness)).rgb;
    float sheenE = hasSheen ? texture(uBRDFLUT, vec2(NdotV, sheenRough)).b : 0.0;
    float sheenScaling = 1.0 - max3(sheenColor) * sheenE;

    // Image-based lighting.
    vec3 r = reflect(-v, n);
    // The dielectric and the metal Fresnel of the environment, mixed by
    // metallic; the dielectric one also weights the diffuse.
    vec3 Fd = iblFresnel(f0dUnweighted, specW, NdotV, roughness, lut.xy);
    vec3 Fss = mix(Fd, iblFresnel(base.rgb, 1.0, NdotV, roughness, lut.xy), metallic);
    vec3 diffW = 1.0 - Fd;
#ifdef IRIDESCENCE
    // The film's Fresnel replaces the plain one by the factor; the
    // dielectric's diffuse is weighted by its largest channel (rgb_mix).
    Fss = mix(Fss, mix(irD, irM, metallic), irF);
    diffW = mix(diffW, vec3(1.0 - max3(irD)), irF);
#endif
#ifdef ANISOTROPY
    // The environment along a normal bent toward the anisotropy
    // direction's normal, as the Sample Viewer reads the prefiltered map.
    vec3 anTan = cross(anB, v);
    vec3 anNormal = cross(anTan, anB);
    float bend = 1.0 - anStrength * (1.0 - roughness);
    bend = bend * bend * bend * bend;
    vec3 bentN = normalize(mix(anNormal, n, bend));
    vec3 iblSpec = specularLight(normalize(reflect(-v, bentN)), roughness) * Fss;
#else
    vec3 iblSpec = specularLight(r, roughness) * Fss;
#endif
#ifdef DIFFUSE_ROUGHNESS
    // The environment's light on a rough diffuse surface: the normal bent
    // toward the view as roughness grows (the draft's cheapest guidance,
    // which flattens the shading), and the EON albedo at the view angle in
    // place of the Lambertian one.
    vec3 dN = normalize(mix(n, v, 0.5 * dRough * (1.0 - NdotV)));
    float eV = eFON(NdotV, dRough);
    vec3 diffuseLight = irradiance(dN) * (diffuseColor * eV + eonMultiAlbedo(diffuseColor, dRough) * (1.0 - eV));
#else
    vec3 diffuseLight = irradiance(n) * diffuseColor;
#endif
#ifdef DIFFUSE_TRANSMISSION
    // Light diffused through the surface from behind, tinted by its colour.
    diffuseLight = mix(diffuseLight, irradiance(-n) * dtColor * dtAtten * (1.0 - metallic), dtF);
#endif
    vec3 iblDiffuse = diffuseLight * diffW;
    // Sheen from the environment: the roughest GGX level stands in for a
    // Charlie-filtered map (the lobe is broad); this matches the Khronos
    // Sample Viewer more closely than a Charlie filter with the spec's
    // albedo did (see README).
    vec3 iblSheen = hasSheen ? sheenColor * sheenE * specularLight(n, 1.0) : vec3(0.0);
    vec3 iblCC = vec3(0.0);
    if (cc > 0.0) {
        float ccNdotV = clamp(dot(ccN, v), 1e-4, 1.0);
        vec2 ccLut = texture(uBRDFLUT, vec2(ccNdotV, ccRough)).rg;
        iblCC = specularLight(reflect(-v, ccN), ccRough) * (uCoatF0 * ccLut.x + ccLut.y);
    }

    // Transmission: what is behind, refracted through the volume's
    // thickness, blurred by roughness, tinted by the base colour and
    // attenuated by Beer's law; it replaces the dielectric diffuse.
    vec3 transmitted = vec3(0.0);
#ifdef TRANSMISSION
    if (transmission > 0.0) {
        vec3 scale = vec3(length(uModel[0].xyz), length(uModel[1].xyz), length(uModel[2].xyz));
        // KHR_materials_dispersion: red, green and blue refract with
        // their own IOR, spread about the material's by the Abbe number
        // (20 / dispersion), each read where its own ray leaves.
        float halfSpread = (uIor - 1.0) * 0.025 * uDispersion;
        vec3 iors = vec3(uIor - halfSpread, uIor, uIor + halfSpread);
        int passes = uDispersion > 0.0 ? 3 : 1;
        vec3 behind = vec3(0.0);
        float rayLen = 0.0;
        for (int i = 0; i < passes; i++) {
            float ior = passes == 1 ? uIor : iors[i];
            vec3 ray = normalize(refract(-v, n, 1.0 / ior)) * thickness * scale;
            rayLen = length(ray);
            vec3 c;
            if (uHasTransmissionFB) {
                vec4 ndc = uViewProj * vec4(vWorldPos + ray, 1.0);
                vec2 uv = ndc.xy / ndc.w * 0.5 + 0.5;
                float size = float(textureSize(uTransmissionFB, 0).x);
                float lod = log2(size) * roughness * clamp(ior * 2.0 - 2.0, 0.0, 1.0);
                c = displayedToLinear(textureLod(uTransmissionFB, uv, lod).rgb);
            } else {
                c = specularLight(refract(-v, n, 1.0 / ior), roughness);
            }
            if (passes == 1) {
                behind = c;
            } else {
                behind[i] = c[i];
            }
        }
        if (uAttenuationDistance > 0.0) {
            behind *= pow(uAttenuationColor, vec3(rayLen / uAttenuationDistance));
        }
        transmitted = behind * base.rgb;
    }
#endif

    float ao = 1.0;
    if (uHasTex[3]) ao = 1.0 + uOcclusionStrength * (sampleTex(3).r - 1.0);
    vec3 diffuse = iblDiffuse * ao;
    vec3 specular = iblSpec * ao;
    vec3 sheen = iblSheen * ao;
    vec3 clearcoat = iblCC * ao;
    // The transmitted part of the dielectric is weighted like its diffuse.
    vec3 transmit = transmitted * (1.0 - metallic) * diffW;
#ifdef FUZZ
    // The fuzz from the environment, like sheen's.
    vec3 fuzz = fuzzColor * fuzzE * specularLight(n, 1.0) * ao;
#endif

    for (int i = 0; i < 4; i++) {
        if (i >= uLightCount) break;
        vec3 l;
        vec3 intensity = uLightColor[i];
        if (uLightType[i] == 0) {
            l = -normalize(uLightDir[i]);
        } else {
            vec3 d = uLightPos[i] - vWorldPos;
            float dist = length(d);
            l = d / max(dist, 1e-6);
            float atten = 1.0 / max(dist * dist, 1e-4);
            if (uLightRange[i] > 0.0) {
                atten *= clamp(1.0 - pow(dist / uLightRange[i], 4.0), 0.0, 1.0);
            }
            if (uLightType[i] == 2) {
                float cd = dot(normalize(uLightDir[i]), -l);
                atten *= smoothstep(uLightCone[i].x, uLightCone[i].y, cd);
            }
            intensity *= atten;
        }
        vec3 h = normalize(l + v);
        float NdotL = clamp(dot(n, l), 0.0, 1.0);
        float NdotH = clamp(dot(n, h), 0.0, 1.0);
        float VdotH = clamp(dot(v, h), 0.0, 1.0);
#ifdef DIFFUSE_TRANSMISSION
        {
            // The diffuse lobe mixed with its mirror through the surface.
            vec3 Fdl = F_Schlick(f0d, f90d, VdotH);
#ifdef IRIDESCENCE
            Fdl = mix(Fdl, vec3(max3(irD)), irF);
#endif
            vec3 front = NdotL * diffuseColor;
            vec3 back = clamp(dot(-n, l), 0.0, 1.0) * dtColor * dtAtten * (1.0 - metallic);
            diffuse += intensity * (1.0 - Fdl) * mix(front, back, dtF) / PI;
        }
#endif
        if (NdotL > 0.0) {
            vec3 F = F_Schlick(f0, f90, VdotH);
            vec3 Fdl = F_Schlick(f0d, f90d, VdotH);
#ifdef IRIDESCENCE
            F = mix(F, mix(irD, irM, metallic), irF);
            Fdl = mix(Fdl, vec3(max3(irD)), irF);
#endif
#ifndef DIFFUSE_TRANSMISSION
#ifdef DIFFUSE_ROUGHNESS
            diffuse += intensity * NdotL * (1.0 - Fdl) * diffuseEON(diffuseColor, dRough, NdotL, NdotV, dot(l, v)) / PI;
#else
            diffuse += intensity * NdotL * (1.0 - Fdl) * diffuseColor / PI;
#endif
#endif
#ifdef ANISOTROPY
            specular += intensity * NdotL * F * specularGGXAniso(a, anStrength, n, v, l, h, anT, anB);
#else
            specular += intensity * NdotL * F * D_GGX(NdotH, a) * V_GGX(NdotL, NdotV, a);
#endif
            if (hasSheen) {
                sheen += intensity * NdotL * sheenColor * D_Charlie(sheenRough, NdotH) * V_Sheen(NdotL, NdotV, sheenRough);
            }
#ifdef FUZZ
            fuzz += intensity * NdotL * fuzzColor * D_Charlie(fuzzRough, NdotH) * V_Sheen(NdotL, NdotV, fuzzRough);
#endif
        }
        if (cc > 0.0) {
            float cNL = clamp(dot(ccN, l), 0.0, 1.0);
            float cNV = clamp(dot(ccN, v), 1e-4, 1.0);
            float cNH = clamp(dot(ccN, h), 0.0, 1.0);
            float ca = ccRough * ccRough;
            float Fc = uCoatF0 + (1.0 - uCoatF0) * pow(1.0 - VdotH, 5.0);
            clearcoat += intensity * cNL * Fc * D_GGX(cNH, ca) * V_GGX(cNL, cNV, ca);
        }
        if (transmission > 0.0) {
            // Light through a thin surface: the GGX lobe about the mirrored light.
            vec3 lm = normalize(l + 2.0 * n * dot(-l, n));
            vec3 hm = normalize(lm + v);
            float ta = a * clamp(uIor * 2.0 - 2.0, 0.0, 1.0);
            float t = D_GGX(clamp(dot(n, hm), 0.0, 1.0), ta) * V_GGX(clamp(dot(n, lm), 0.0, 1.0), NdotV, ta);
            transmit += intensity * base.rgb * t * (1.0 - metallic) * clamp(dot(-n, l), 0.0, 1.0);
        }
    }

    vec3 color = mix(diffuse, transmit, transmission) + specular;
    color = sheen + color * sheenScaling;
    vec3 emissive = uEmissiveFactor;
    if (uHasTex[4]) emissive *= sampleTex(4).rgb;
#ifdef CLEARCOAT
    if (cc > 0.0) {
        float ccNdotV = clamp(dot(ccN, v), 0.0, 1.0);
        float Fcc = uCoatF0 + (1.0 - uCoatF0) * pow(1.0 - ccNdotV, 5.0);
        color = color * coatTint * (1.0 - cc * Fcc) + clearcoat * cc;
    }
#endif
    color += emissive;
#ifdef FUZZ
    // The fuzz layer on top of everything: it reflects fuzzE of the light
    // (by its weight) and passes the rest, untinted.
    color = fuzz * fuzzW + color * (1.0 - fuzzW * fuzzE);
#endif
    fragColor = finish(color, base.a);
}
