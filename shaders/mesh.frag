#version 330 core
// The renderer inserts #define SHEEN, CLEARCOAT and TRANSMISSION after the
// first line for materials that use them, so other materials compile and
// run without that code (on a software rasteriser both matter).
//
// glTF 2.0 PBR metallic-roughness with the KHR material extensions sheen,
// specular, ior, clearcoat, transmission, volume and emissive_strength,
// lit by image-based lighting (split sum: a prefiltered GGX cube map, a
// BRDF lookup table, irradiance as spherical harmonics) and up to 4
// punctual lights. The terms follow the Khronos specifications of each
// extension, as the Khronos glTF Sample Viewer computes them.
in vec3 vWorldPos;
in vec3 vNormal;
in vec4 vTangent;
in vec2 vUV0;
in vec2 vUV1;
in vec4 vColor;

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

// Texture slots: 0 base colour, 1 metallic-roughness, 2 normal, 3 occlusion,
// 4 emissive, 5 sheen colour, 6 sheen roughness, 7 specular, 8 specular
// colour, 9 clearcoat, 10 clearcoat roughness, 11 clearcoat normal,
// 12 transmission, 13 thickness.
uniform sampler2D uTex0, uTex1, uTex2, uTex3, uTex4, uTex5, uTex6, uTex7, uTex8, uTex9, uTex10, uTex11, uTex12, uTex13;
uniform bool uHasTex[14];
uniform int uTexCoord[14];
uniform mat3 uTexTransform[14];

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
uniform float uExposure;

uniform sampler2D uTransmissionFB; // the view after the opaque pass, as displayed, with mipmaps
uniform bool uHasTransmissionFB;
uniform mat4 uViewProj;
uniform mat4 uModel;

const float PI = 3.14159265359;

vec2 uvFor(int slot) {
    vec2 uv = uTexCoord[slot] == 1 ? vUV1 : vUV0;
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
    if (slot == 13) return texture(uTex13, uv);
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

vec3 irradiance(vec3 n) {
    vec3 c = uSH[0] * 0.282095
        + uSH[1] * 0.488603 * n.y + uSH[2] * 0.488603 * n.z + uSH[3] * 0.488603 * n.x
        + uSH[4] * 1.092548 * n.x * n.y + uSH[5] * 1.092548 * n.y * n.z
        + uSH[6] * 0.315392 * (3.0 * n.z * n.z - 1.0)
        + uSH[7] * 1.092548 * n.x * n.z + uSH[8] * 0.546274 * (n.x * n.x - n.y * n.y);
    return max(c, vec3(0.0));
}

vec3 specularLight(vec3 dir, float roughness) {
    return textureLod(uEnvSpecular, dir, roughness * (uEnvMips - 1.0)).rgb;
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
    if (uHasTex[1]) {
        vec4 mr = sampleTex(1);
        roughness *= mr.g;
        metallic *= mr.b;
    }
    roughness = clamp(roughness, 0.0, 1.0);
    metallic = clamp(metallic, 0.0, 1.0);

    // Tangent frame, only for normal maps: the tangent attribute when there
    // is one, otherwise from the screen-space derivatives of position and UV.
    vec3 ng = normalize(vNormal);
    vec3 t = vec3(1.0, 0.0, 0.0), b = vec3(0.0, 1.0, 0.0);
    if (uHasTex[2] || uHasTex[11]) {
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
    vec3 f0d = min(vec3(f0ior) * specColor, vec3(1.0)) * specW;
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

    vec3 lut = texture(uBRDFLUT, vec2(NdotV, roughness)).rgb;
    float sheenE = hasSheen ? texture(uBRDFLUT, vec2(NdotV, sheenRough)).b : 0.0;
    float sheenScaling = 1.0 - max3(sheenColor) * sheenE;

    // Image-based lighting.
    vec3 r = reflect(-v, n);
    vec3 Fss = f0 * lut.x + f90 * lut.y;
    vec3 Fd = f0d * lut.x + f90d * lut.y; // dielectric part, for the diffuse weight
    vec3 iblSpec = specularLight(r, roughness) * Fss;
    vec3 iblDiffuse = irradiance(n) * diffuseColor * (1.0 - Fd);
    // Sheen from the environment: the roughest GGX level stands in for a
    // Charlie-filtered map (the lobe is broad); this matches the Khronos
    // Sample Viewer more closely than a Charlie filter with the spec's
    // albedo did (see README).
    vec3 iblSheen = hasSheen ? sheenColor * sheenE * specularLight(n, 1.0) : vec3(0.0);
    vec3 iblCC = vec3(0.0);
    if (cc > 0.0) {
        float ccNdotV = clamp(dot(ccN, v), 1e-4, 1.0);
        vec2 ccLut = texture(uBRDFLUT, vec2(ccNdotV, ccRough)).rg;
        iblCC = specularLight(reflect(-v, ccN), ccRough) * (0.04 * ccLut.x + ccLut.y);
    }

    // Transmission: what is behind, refracted through the volume's
    // thickness, blurred by roughness, tinted by the base colour and
    // attenuated by Beer's law; it replaces the dielectric diffuse.
    vec3 transmitted = vec3(0.0);
    if (transmission > 0.0) {
        vec3 scale = vec3(length(uModel[0].xyz), length(uModel[1].xyz), length(uModel[2].xyz));
        vec3 ray = normalize(refract(-v, n, 1.0 / uIor)) * thickness * scale;
        vec3 exitPos = vWorldPos + ray;
        vec3 behind;
#ifdef TRANSMISSION
        if (uHasTransmissionFB) {
            vec4 ndc = uViewProj * vec4(exitPos, 1.0);
            vec2 uv = ndc.xy / ndc.w * 0.5 + 0.5;
            float size = float(textureSize(uTransmissionFB, 0).x);
            float lod = log2(size) * roughness * clamp(uIor * 2.0 - 2.0, 0.0, 1.0);
            behind = displayedToLinear(textureLod(uTransmissionFB, uv, lod).rgb);
        } else
#endif
        {
            behind = specularLight(refract(-v, n, 1.0 / uIor), roughness);
        }
        if (uAttenuationDistance > 0.0) {
            behind *= pow(uAttenuationColor, vec3(length(ray) / uAttenuationDistance));
        }
        transmitted = behind * base.rgb;
    }

    float ao = 1.0;
    if (uHasTex[3]) ao = 1.0 + uOcclusionStrength * (sampleTex(3).r - 1.0);
    vec3 diffuse = iblDiffuse * ao;
    vec3 specular = iblSpec * ao;
    vec3 sheen = iblSheen * ao;
    vec3 clearcoat = iblCC * ao;
    // The transmitted part of the dielectric is weighted like its diffuse.
    vec3 transmit = transmitted * (1.0 - metallic) * (1.0 - Fd);

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
        if (NdotL > 0.0) {
            vec3 F = F_Schlick(f0, f90, VdotH);
            vec3 Fdl = F_Schlick(f0d, f90d, VdotH);
            diffuse += intensity * NdotL * (1.0 - Fdl) * diffuseColor / PI;
            specular += intensity * NdotL * F * D_GGX(NdotH, a) * V_GGX(NdotL, NdotV, a);
            if (hasSheen) {
                sheen += intensity * NdotL * sheenColor * D_Charlie(sheenRough, NdotH) * V_Sheen(NdotL, NdotV, sheenRough);
            }
        }
        if (cc > 0.0) {
            float cNL = clamp(dot(ccN, l), 0.0, 1.0);
            float cNV = clamp(dot(ccN, v), 1e-4, 1.0);
            float cNH = clamp(dot(ccN, h), 0.0, 1.0);
            float ca = ccRough * ccRough;
            float Fc = 0.04 + 0.96 * pow(1.0 - VdotH, 5.0);
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
    if (cc > 0.0) {
        float ccNdotV = clamp(dot(ccN, v), 0.0, 1.0);
        float Fcc = 0.04 + 0.96 * pow(1.0 - ccNdotV, 5.0);
        color = color * (1.0 - cc * Fcc) + clearcoat * cc;
    }
    vec3 emissive = uEmissiveFactor;
    if (uHasTex[4]) emissive *= sampleTex(4).rgb;
    color += emissive;
    fragColor = finish(color, base.a);
}
