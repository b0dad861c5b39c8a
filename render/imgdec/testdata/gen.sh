#!/bin/sh
# Regenerates the decoder fixtures with ImageMagick: odd sizes, every PNG
# colour type and depth the glTF files use, interlaced PNG, and JPEGs with
# 4:2:0, 4:2:2 and 4:4:4 chroma, progressive and greyscale.
set -e
cd "$(dirname "$0")"
convert -seed 7 -size 37x23 plasma:fractal -alpha set -channel A -fx 'i/w' +channel PNG32:rgba8.png
convert -seed 7 -size 37x23 plasma:fractal PNG24:rgb8.png
convert -seed 7 -size 37x23 plasma:fractal -colorspace Gray -depth 8 PNG8:gray_palette.png
convert -seed 7 -size 37x23 plasma:fractal -colorspace Gray -define png:color-type=0 -depth 8 gray8.png
convert -seed 7 -size 37x23 plasma:fractal -colorspace Gray -alpha set -channel A -fx 'j/h' +channel -define png:color-type=4 gray_alpha.png
convert -seed 7 -size 37x23 plasma:fractal -colors 12 -transparent "$(convert -seed 7 -size 37x23 plasma:fractal -colors 12 -format '%[pixel:p{0,0}]' info:)" PNG8:palette_trns.png
convert -seed 7 -size 37x23 plasma:fractal -alpha set -channel A -fx 'i/w' +channel -depth 16 PNG64:rgba16.png
convert -seed 7 -size 37x23 plasma:fractal -interlace PNG PNG24:interlaced.png
convert -seed 7 -size 37x23 plasma:fractal -sampling-factor 4:2:0 -quality 85 yuv420.jpg
convert -seed 7 -size 37x23 plasma:fractal -sampling-factor 4:2:2 -quality 85 yuv422.jpg
convert -seed 7 -size 37x23 plasma:fractal -sampling-factor 4:4:4 -quality 92 yuv444.jpg
convert -seed 7 -size 37x23 plasma:fractal -interlace JPEG -quality 80 progressive.jpg
convert -seed 7 -size 37x23 plasma:fractal -colorspace Gray -quality 85 gray.jpg
# AVIF (EXT_texture_avif) with libavif's avifenc (Debian's libavif-bin):
# lossless RGBA (identity matrix, 4:4:4), and lossy 4:2:0 RGB.
avifenc -s 10 --lossless rgba8.png rgba8_lossless.avif >/dev/null
avifenc -s 10 -y 420 --min 20 --max 20 rgb8.png rgb8_420.avif >/dev/null
